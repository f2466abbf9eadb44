import type { Priority, Status } from '~/domain/constants'
import type { DueWindow } from '~/utils/due-date'

/**
 * What the built-in assistant understands of a message: a handful of intents, recognised by
 * their words, each answered by calling one of the chat's tools. Plain code, no model: the
 * answers are exact because they are the tools' results, not a guess.
 */
export type Intent =
  | { kind: 'create'; title: string; priority?: Priority }
  | { kind: 'set-status'; query: string; status: Status }
  | { kind: 'docs'; query: string }
  | { kind: 'due'; due?: DueWindow; assignedToMe?: true }
  | { kind: 'week' }
  | { kind: 'count' }
  | { kind: 'list'; status?: Status; priority?: Priority }
  | { kind: 'search'; query: string }
  | { kind: 'help' }

const STATUS_WORDS: ReadonlyArray<readonly [RegExp, Status]> = [
  [/\b(?:not started|backlog|to ?do)\b/i, 'Not Started'],
  [/\b(?:in progress|lfg|started|doing|working on)\b/i, 'In Progress'],
  [/\b(?:done|completed?|finished)\b/i, 'Completed'],
]

function statusIn(text: string): Status | undefined {
  return STATUS_WORDS.find(([pattern]) => pattern.test(text))?.[1]
}

function priorityIn(text: string): Priority | undefined {
  return text.match(/\b(high|medium|low)(?:[- ]priority)?\b/i)?.[1]?.toLowerCase() as Priority | undefined
}

/** "overdue", "due today", "due this week": which due tasks a question asks for. */
function dueIn(text: string): DueWindow | undefined {
  if (/\b(?:overdue|late|past due)\b/i.test(text)) return 'overdue'
  if (!/\bdue\b/i.test(text)) return undefined
  if (/\btoday\b/i.test(text)) return 'today'
  if (/\bweek\b/i.test(text)) return 'week'
  return undefined
}

const unquote = (text: string) =>
  text
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’.!?]+$/g, '')
    .trim()

/** The subject of a question: what follows "about", else the message without its question words. */
function subjectOf(text: string) {
  const about = text.match(/\babout\s+(.+)$/i)?.[1]
  const subject =
    about ??
    text.replace(
      /\b(?:what|which|does|do|did|the|docs?|documentation|say|says|how|can|could|i|me|my|you|to|in|a|an|is|are|find|search|for|look|tasks?|show|please)\b/gi,
      ' ',
    )
  return unquote(subject.replace(/\s+/g, ' '))
}

export function recogniseIntent(message: string): Intent {
  const text = message.trim().replace(/\s+/g, ' ')

  const create = text.match(
    /^(?:please\s+)?(?:create|add|make|new)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:(high|medium|low)[- ]priority\s+)?task\s*(?:called|named|titled|:|-)?\s*(.+)$/i,
  )
  if (create?.[2] && unquote(create[2]).length > 0) {
    const priority = (create[1]?.toLowerCase() as Priority | undefined) ?? undefined
    return { kind: 'create', title: unquote(create[2]), ...(priority ? { priority } : {}) }
  }

  const setStatus = text.match(
    /^(?:please\s+)?(?:mark|set|move|change)\s+(?:the\s+)?(?:task\s+)?(.+?)\s+(?:as|to|into)\s+(.+)$/i,
  )
  const newStatus = setStatus?.[2] ? statusIn(setStatus[2]) : undefined
  if (setStatus?.[1] && newStatus)
    return { kind: 'set-status', query: unquote(setStatus[1]), status: newStatus }

  if (/\b(?:docs?|documentation|how (?:do|can) i|how to)\b/i.test(text)) {
    return { kind: 'docs', query: subjectOf(text) || text }
  }
  const due = dueIn(text)
  const assignedToMe = /\b(?:assigned to me|assigned me|my assignments?)\b/i.test(text)
  if (due || assignedToMe)
    return { kind: 'due', ...(due ? { due } : {}), ...(assignedToMe ? { assignedToMe } : {}) }
  if (/\b(?:week|weekly)\b/i.test(text)) return { kind: 'week' }
  if (/\b(?:how many|count|stats|statistics|numbers)\b/i.test(text)) return { kind: 'count' }

  const search = text.match(/\b(?:find|search(?: for)?|look for|tasks? about|mention(?:s|ing)?)\s+(.+)$/i)
  if (search?.[1]) {
    const query = subjectOf(search[1])
    if (query) return { kind: 'search', query }
  }

  if (/\b(?:tasks?|in progress|working on|to ?do|backlog|done|completed)\b/i.test(text)) {
    const status = statusIn(text)
    const priority = priorityIn(text)
    return { kind: 'list', ...(status ? { status } : {}), ...(priority ? { priority } : {}) }
  }
  return { kind: 'help' }
}
