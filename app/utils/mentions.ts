/**
 * Mentions in comment text (docs/product-rules.md §1): which `@Name` parts a text holds, whom each
 * part names, and what to highlight. The browser (the picker, the hidden `mentions` fields, the
 * highlighting) and the server (who gets notified) both read text through this one module, so
 * they cannot disagree about who was mentioned.
 */

export type Mentionable = { id: string; name: string; email: string; image: string | null }

/**
 * An `@` and the run of letters and spaces after it, trimmed. An `@` right after a letter, digit
 * or underscore is inside an e-mail address (ada@example.com), not a mention.
 */
const MENTION = /(?<![\p{L}\p{M}\p{N}_])@([\p{L}\p{M}]+(?: +[\p{L}\p{M}]+)*)/gu
const ENDS_IN_WORD = /[\p{L}\p{M}\p{N}_]$/u
const STARTS_WITH_WORD = /^[\p{L}\p{M}\p{N}_]/u
const WORD = /[\p{L}\p{M}]+/gu
/** What the picker accepts after the `@`: letters, single spaces between words, one at the end. */
const QUERY = /^(?:[\p{L}\p{M}]+(?: [\p{L}\p{M}]+)* ?)?$/u

/** Names compare without case, Unicode form (a typed "Zoë" may be e + ¨) or doubled spaces. */
function fold(text: string) {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim()
}

type Match = { user: Mentionable; length: number }

/**
 * Whom a part names, in the order of docs/product-rules.md §1: exactly the name, the name in any case, then a prefix
 * either way. `rest` is the text after the `@` (the part and what follows it), so a name with a
 * hyphen or an apostrophe ("Jean-Luc") is still found whole. `length` is how much of the text
 * names the user.
 */
function createMatcher(users: readonly Mentionable[]) {
  const people = users.map((user) => ({ user, folded: fold(user.name) })).filter(({ folded }) => folded)
  const byName = new Map<string, Mentionable>()
  for (const { user, folded } of people) if (!byName.has(folded)) byName.set(folded, user)
  const longestName = Math.max(0, ...people.map(({ folded }) => folded.length))

  return (part: string, rest: string): Match | undefined => {
    const exact = people.find(({ user }) => user.name === part)
    if (exact) return { user: exact.user, length: part.length }
    const sameName = byName.get(fold(part))
    if (sameName) return { user: sameName, length: part.length }

    // The text goes on past someone's whole name: the longest name wins, so "@Grace Hopper
    // please" is Grace Hopper even when a Grace may be mentioned too.
    for (let end = Math.min(rest.length, longestName * 2 + 1); end > 0; end--) {
      const text = rest.slice(0, end)
      if (/\s$/.test(text) || STARTS_WITH_WORD.test(rest.slice(end))) continue
      const user = byName.get(fold(text))
      if (user) return { user, length: end }
    }

    // The part (or its first words) begins someone's name: "@gra" is Grace Hopper.
    const wordEnds = [...part.matchAll(WORD)].map((word) => word.index + word[0].length)
    for (const end of wordEnds.reverse()) {
      const prefix = fold(part.slice(0, end))
      const person = people.find(({ folded }) => folded.startsWith(prefix))
      if (person) return { user: person.user, length: end }
    }
    return undefined
  }
}

/** Every `@` part of a text: where it starts, how long its highlight is, and whom it names. */
function* scan(content: string, users: readonly Mentionable[]) {
  const match = createMatcher(users)
  let end = 0
  for (const found of content.matchAll(MENTION)) {
    if (found.index < end) continue
    const part = found[1] ?? ''
    const named = match(part, content.slice(found.index + 1))
    // Nobody matched (or nobody may be mentioned here): the @ and its first word still stand out.
    const length = 1 + (named?.length ?? part.search(/ |$/))
    end = found.index + length
    yield { index: found.index, length, user: named?.user }
  }
}

/** The `@Name` parts of a text: "hi @Grace Hopper please look" gives ["Grace Hopper please look"]. */
export function mentionNames(content: string): string[] {
  return [...content.matchAll(MENTION)].map((found) => found[1] ?? '')
}

/** The user a `@` part names, if any (see `createMatcher` for the order). */
export function matchMention(part: string, users: Mentionable[]): Mentionable | undefined {
  return createMatcher(users)(part, part)?.user
}

/** Everyone a text mentions, once each (by e-mail), in the order they are first mentioned. */
export function findMentions(content: string, users: Mentionable[]): Mentionable[] {
  const found = new Map<string, Mentionable>()
  for (const { user } of scan(content, users)) {
    if (user && !found.has(user.email.toLowerCase())) found.set(user.email.toLowerCase(), user)
  }
  return [...found.values()]
}

/** The text cut into plain runs and `@Name` highlights; joined back, it is the text again. */
export function mentionSegments(
  content: string,
  users: Mentionable[],
): Array<{ text: string; isMention: boolean }> {
  const segments: Array<{ text: string; isMention: boolean }> = []
  let cursor = 0
  for (const { index, length } of scan(content, users)) {
    if (index > cursor) segments.push({ text: content.slice(cursor, index), isMention: false })
    segments.push({ text: content.slice(index, index + length), isMention: true })
    cursor = index + length
  }
  if (cursor < content.length) segments.push({ text: content.slice(cursor), isMention: false })
  return segments
}

/**
 * The mention being typed at the caret, for the picker: where its `@` is and what follows it.
 * The `@` starts a mention under the same rule as `mentionNames` (not inside an e-mail address).
 */
export function activeMentionQuery(value: string, caret: number): { start: number; query: string } | null {
  const before = value.slice(0, caret)
  const start = before.lastIndexOf('@')
  if (start < 0 || ENDS_IN_WORD.test(before.slice(0, start))) return null
  const query = before.slice(start + 1)
  return QUERY.test(query) ? { start, query } : null
}

/** Puts `@Name ` where `@query` was (without doubling a space that follows) and the caret after it. */
export function insertMention(
  value: string,
  start: number,
  caret: number,
  name: string,
): { value: string; caret: number } {
  const mention = `@${name} `
  const after = value.slice(caret).replace(/^ /, '')
  return { value: value.slice(0, start) + mention + after, caret: start + mention.length }
}
