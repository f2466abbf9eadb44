/**
 * Plain-text views of MDX source: what a reader reads (for reading time) and what a search
 * matches (for docs search). Working on the source keeps both cheap — no compilation needed to
 * count words or build the search index.
 */

/** The words of an MDX body without its markup: code stays (people read it), syntax goes. */
export function plainText(mdx: string): string {
  return (
    mdx
      // import/export lines are code for the compiler, not text for the reader
      .replace(/^(?:import|export)\s.*$/gm, ' ')
      // code fence markers (the code itself stays)
      .replace(/^\s*(?:```|~~~).*$/gm, ' ')
      // JSX and HTML tags, including self-closing components
      .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
      // images, then links: keep the visible text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      // headings, quotes, list markers, table pipes and rules, emphasis, inline code
      .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
      .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, ' ')
      .replace(/[|*`~]+/g, ' ')
      // underscores of _emphasis_, not those inside names like DATABASE_URL
      .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

const WORDS_PER_MINUTE = 200

/** Words ÷ 200, rounded up, shown as 'N min read' — never less than one minute (docs/product-rules.md §3). */
export function readingTime(words: number): string {
  return `${Math.max(1, Math.ceil(words / WORDS_PER_MINUTE))} min read`
}

export type SnippetPart = { text: string; isMatch: boolean }

/**
 * A short excerpt of `text` around the first place any of `terms` occurs, split into parts so
 * the matches can be highlighted without building HTML from user input.
 */
export function snippet(text: string, terms: string[], radius = 90): SnippetPart[] {
  const wanted = terms.filter((term) => term.length > 0).map(escapeRegExp)
  if (wanted.length === 0) return [{ text: truncate(text, radius * 2), isMatch: false }]
  const alternatives = wanted.sort((a, b) => b.length - a.length).join('|')
  const pattern = new RegExp(`(${alternatives})`, 'giu')
  const isTerm = new RegExp(`^(?:${alternatives})$`, 'iu')

  const first = text.search(pattern)
  if (first === -1) return [{ text: truncate(text, radius * 2), isMatch: false }]

  let start = Math.max(0, first - radius)
  let end = Math.min(text.length, first + radius)
  // Cut at word boundaries, so the excerpt never starts or ends inside a word.
  if (start > 0) start = text.indexOf(' ', start) + 1 || start
  if (end < text.length) end = text.lastIndexOf(' ', end) > first ? text.lastIndexOf(' ', end) : end
  const excerpt = `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`

  return excerpt
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, isMatch: isTerm.test(part) }))
}

function truncate(text: string, length: number) {
  if (text.length <= length) return text
  const cut = text.lastIndexOf(' ', length)
  return `${text.slice(0, cut > 0 ? cut : length)}…`
}

function escapeRegExp(value: string) {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
