import { and, asc, eq, isNull, type SQLWrapper, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { comments, tasks, users } from '~/db/schema'
import { SEARCH_LIMITS } from '~/domain/constants'
import { MARK_END, MARK_START, type Part, type SearchInput, toMatchQuery, toParts } from './search-query'
import type { Actor } from './session-user'
import { ruleSql, viewerValues } from './tasks/rule.server'

/**
 * Search over tasks (title and details) and comments, through the FTS5 indexes that triggers keep
 * in step with every write (drizzle/0007_search.sql, docs/decisions/039-search-index.md). What a
 * person may find is what they may see: each match is joined to its task and kept only when
 * `TASK_RULES.see` holds, so a private task never shows its title, a snippet of a comment on it,
 * or that it exists. Matches are ranked by bm25, a title's words counting more than details'.
 */

export type TaskHit = {
  id: string
  /** The plain title. */
  text: string
  title: Part[]
  /** The best passage of the details, when the task has any. */
  details: Part[] | null
  ownerName: string
}

export type CommentHit = { id: string; taskId: string; taskText: string; snippet: Part[]; authorName: string }

export type SearchResults = {
  query: string
  /** Why nothing was searched (an empty or over-long query), for the person to read; else null. */
  message: string | null
  tasks: TaskHit[]
  comments: CommentHit[]
}

// The indexes are virtual tables the schema does not declare (drizzle-kit would try to create them).
const tasksIndex = sql`${sql.identifier('tasks_search')}`
const commentsIndex = sql`${sql.identifier('comments_search')}`

/** A title counts ten times a word of the details. */
const TITLE_WEIGHT = 10
/** Words around a match in a snippet. */
const SNIPPET_WORDS = 16

const marked = (index: SQLWrapper, column: number) =>
  sql<string>`highlight(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END})`
const snippetOf = (index: SQLWrapper, column: number) =>
  sql<string>`snippet(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END}, '…', ${sql.raw(String(SNIPPET_WORDS))})`

export async function search(db: Database, viewer: Actor, input: SearchInput): Promise<SearchResults> {
  const query = input.query
  const parsed = toMatchQuery(query)
  if ('message' in parsed) return { query, message: parsed.message, tasks: [], comments: [] }
  const limit = input.limit ?? SEARCH_LIMITS.results.default
  const mayBeSeen = ruleSql('see', viewerValues(viewer))
  const [taskRows, commentRows] = await Promise.all([
    db
      .select({
        id: tasks.id,
        text: tasks.text,
        details: tasks.details,
        title: marked(tasksIndex, 0),
        snippet: snippetOf(tasksIndex, 1),
        ownerName: users.name,
      })
      .from(tasksIndex)
      .innerJoin(tasks, sql`${tasks}.rowid = ${tasksIndex}.rowid`)
      .innerJoin(users, eq(users.id, tasks.userId))
      .where(and(sql`${tasksIndex} MATCH ${parsed.match}`, mayBeSeen))
      .orderBy(sql`bm25(${tasksIndex}, ${sql.raw(String(TITLE_WEIGHT))}, 1.0)`, asc(tasks.id))
      .limit(limit),
    db
      .select({
        id: comments.id,
        taskId: comments.taskId,
        taskText: tasks.text,
        snippet: snippetOf(commentsIndex, 0),
        authorName: users.name,
      })
      .from(commentsIndex)
      .innerJoin(comments, sql`${comments}.rowid = ${commentsIndex}.rowid`)
      .innerJoin(tasks, eq(tasks.id, comments.taskId))
      .innerJoin(users, eq(users.id, comments.userId))
      .where(and(sql`${commentsIndex} MATCH ${parsed.match}`, isNull(comments.deletedAt), mayBeSeen))
      .orderBy(sql`bm25(${commentsIndex})`, asc(comments.id))
      .limit(limit),
  ])
  return {
    query,
    message: null,
    tasks: taskRows.map((row) => ({
      id: row.id,
      text: row.text,
      title: toParts(row.title),
      details: row.details ? toParts(row.snippet) : null,
      ownerName: row.ownerName || 'Unknown User',
    })),
    comments: commentRows.map((row) => ({
      id: row.id,
      taskId: row.taskId,
      taskText: row.taskText,
      snippet: toParts(row.snippet),
      authorName: row.authorName || 'Unknown User',
    })),
  }
}
