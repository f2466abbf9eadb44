import type { Part } from '~/services/search-query'

/**
 * A search match as text with its matched words in `<mark>`: built from parts, never from HTML,
 * so nothing stored in a task or comment can become markup. Shared by the search page and the
 * command palette.
 */
export function Highlighted({ parts }: { parts: Part[] }) {
  return parts.map((part, index) =>
    part.mark ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts never reorder; the same text may repeat
      <mark key={index} className="rounded-sm bg-yellow-200 px-0.5 text-black">
        {part.text}
      </mark>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <span key={index}>{part.text}</span>
    ),
  )
}
