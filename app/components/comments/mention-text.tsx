import { type Mentionable, mentionSegments } from '~/utils/mentions'

/** Comment text with its `@Name` parts highlighted; the parent keeps white space (whitespace-pre-wrap). */
export function MentionText({ content, users }: { content: string; users: Mentionable[] }) {
  return (
    <>
      {mentionSegments(content, users).map((segment, index) =>
        segment.isMention ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in order, never reordered
          <span key={index} className="rounded bg-primary/10 px-0.5 font-medium text-primary">
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  )
}
