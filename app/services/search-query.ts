import { SEARCH_LIMITS } from '~/domain/constants'
import { z } from '~/utils/zod'
import { WorkspaceIdSchema } from './tasks/task-schemas'

/**
 * What a person types into search, turned into an FTS5 query that can hold no syntax of theirs:
 * every word becomes a quoted term, text inside double quotes a quoted phrase, and everything else
 * (operators, NEAR, `*`, `^`, parentheses, colons, stray quotes, control characters) only separates
 * words. A word of two letters or more matches as a prefix ("depl" finds "deployment"); a single
 * letter matches only itself, which keeps one typed letter from reading half the index.
 */

/** A piece of a highlighted title or snippet: the page renders `mark` pieces in `<mark>`. */
export type Part = { text: string; mark: boolean }

export const SearchInputSchema = z.object({
  query: z.string({ error: 'query is required' }),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMITS.results.max).optional(),
  /** One of the searcher's workspaces to search in; absent: everything they may see. */
  workspaceId: WorkspaceIdSchema.optional(),
})
export type SearchInput = z.output<typeof SearchInputSchema>

export const EMPTY_QUERY_MESSAGE = 'Type a word or two to search your tasks and comments.'
export const NO_WORDS_MESSAGE = 'Search looks for words: type some letters or numbers.'
export const LONG_QUERY_MESSAGE = `Searches are limited to ${SEARCH_LIMITS.query.maxLength} characters: shorten yours and try again.`

/** Letters (with their accents) and digits, as the index's tokenizer reads words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu

const wordsIn = (text: string) => text.match(WORD) ?? []

/** Either the MATCH expression to run, or the sentence that says why there is nothing to run. */
export function toMatchQuery(typed: string): { match: string } | { message: string } {
  const query = typed.trim()
  if (query.length === 0) return { message: EMPTY_QUERY_MESSAGE }
  if (query.length > SEARCH_LIMITS.query.maxLength) return { message: LONG_QUERY_MESSAGE }
  const terms: string[] = []
  // Even pieces lie outside quotes, odd ones inside; an unclosed quote's text counts as words.
  const pieces = query.normalize('NFC').split('"')
  pieces.forEach((piece, index) => {
    const words = wordsIn(piece)
    if (words.length === 0) return
    const isPhrase = index % 2 === 1 && index < pieces.length - 1 && words.length > 1
    if (isPhrase) terms.push(`"${words.join(' ')}"`)
    else for (const word of words) terms.push(word.length > 1 ? `"${word}"*` : `"${word}"`)
  })
  if (terms.length === 0) return { message: NO_WORDS_MESSAGE }
  return { match: terms.join(' ') }
}

// Marks around a match, as the index's highlight and snippet functions insert them: control
// characters no tokenizer keeps, turned into parts here so no markup from the database reaches a page.
export const MARK_START = '\u0002'
export const MARK_END = '\u0003'

/** A highlighted text from the index as parts: text only, so nothing stored can become markup. */
export function toParts(highlighted: string): Part[] {
  const parts: Part[] = []
  let text = ''
  let mark = false
  const flush = () => {
    if (text !== '') parts.push({ text, mark })
    text = ''
  }
  for (const char of highlighted) {
    if (char === MARK_START || char === MARK_END) {
      flush()
      mark = char === MARK_START
    } else text += char
  }
  flush()
  return parts
}
