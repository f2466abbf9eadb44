import { and, asc, eq, isNull, type SQLWrapper, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { comments, tasks, users } from '~/db/schema'
import { SEARCH_LIMITS } from '~/domain/constants'
import { MARK_END, MARK_START, type Part, type SearchInput, toMatchQuery, toParts } from './search-query'
import type { Actor, Viewer } from './session-user'
import { ruleSql, viewerValues } from './tasks/rule.server'

/**
 * Search over tasks (title and details) and comments, through the FTS5 indexes that triggers keep
 * in step with every write (drizzle/0007_search.sql, drizzle/0013_search_audience.sql,
 * docs/decisions/039-search-index.md and 046). What a person may find is what they may see. The
 * index narrows first: each row carries its task's audience as words, and a search matches the
 * typed words AND one of the searcher's own (`audienceWords`), so only rows they may see are
 * ranked. The rule decides: each of those is joined to its task and kept only when
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

/** A title counts ten times a word of the details; the audience column counts for nothing. */
const TITLE_WEIGHT = 10
/** Words around a match in a snippet. */
const SNIPPET_WORDS = 16

const marked = (index: SQLWrapper, column: number) =>
  sql<string>`highlight(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END})`
const snippetOf = (index: SQLWrapper, column: number) =>
  sql<string>`snippet(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END}, '…', ${sql.raw(String(SNIPPET_WORDS))})`

/**
 * The audience words a viewer's rows carry, as `task_audiences` (drizzle/0013_search_audience.sql)
 * writes them: their own id (`o`), public (`p`), and their verified address (`s`), in hex. A visitor
 * matches only public rows. A match query's alternatives, for the index's `search_audience` column.
 */
export function audienceWords(viewer: Viewer) {
  const { id, email } = viewerValues(viewer)
  const hex = (value: string) => Buffer.from(value, 'utf8').toString('hex')
  const words = ['p', ...(id ? [`o${hex(id)}`] : []), ...(email ? [`s${hex(email)}`] : [])]
  return words.map((word) => `"${word}"`).join(' OR ')
}

export async function search(db: Database, viewer: Actor, input: SearchInput): Promise<SearchResults> {
  const query = input.query
  const parsed = toMatchQuery(query)
  if ('message' in parsed) return { query, message: parsed.message, tasks: [], comments: [] }
  const limit = input.limit ?? SEARCH_LIMITS.results.default
  const mayBeSeen = ruleSql('see', viewerValues(viewer))
  // Ranking matches the typed words among the rows the viewer's audience words reach; marking the
  // page's rows (found by rowid) needs the typed words only.
  const mayMatch = `search_audience : (${audienceWords(viewer)})`
  const taskWords = `{text details} : (${parsed.match})`
  const commentWords = `content : (${parsed.match})`
  const matches = (index: SQLWrapper, match: string) => sql`${index} MATCH ${match}`
  // Two steps: the matches the viewer may see are ranked and cut to the page first; only then are
  // the page's rows highlighted. In one step SQLite would build a snippet for every match before
  // sorting (re-reading each text), thousands of them for a common word.
  const rankedTasks = db
    .select({
      rowid: sql<number>`${tasksIndex}.rowid`.as('task_rowid'),
      score: sql<number>`bm25(${tasksIndex}, ${sql.raw(String(TITLE_WEIGHT))}, 1.0, 0.0)`.as('task_score'),
    })
    .from(tasksIndex)
    .innerJoin(tasks, sql`${tasks}.rowid = ${tasksIndex}.rowid`)
    .where(and(matches(tasksIndex, `${taskWords} AND ${mayMatch}`), mayBeSeen))
    .orderBy(sql`task_score`, asc(tasks.id))
    .limit(limit)
    .as('ranked_tasks')
  const rankedComments = db
    .select({
      rowid: sql<number>`${commentsIndex}.rowid`.as('comment_rowid'),
      score: sql<number>`bm25(${commentsIndex}, 1.0, 0.0)`.as('comment_score'),
    })
    .from(commentsIndex)
    .innerJoin(comments, sql`${comments}.rowid = ${commentsIndex}.rowid`)
    .innerJoin(tasks, eq(tasks.id, comments.taskId))
    .where(
      and(matches(commentsIndex, `${commentWords} AND ${mayMatch}`), isNull(comments.deletedAt), mayBeSeen),
    )
    .orderBy(sql`comment_score`, asc(comments.id))
    .limit(limit)
    .as('ranked_comments')
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
      // CROSS JOIN keeps the page outermost: each of its rows is looked up in the index by rowid.
      .from(rankedTasks)
      .crossJoin(tasksIndex)
      .innerJoin(tasks, sql`${tasks}.rowid = ${rankedTasks.rowid}`)
      .innerJoin(users, eq(users.id, tasks.userId))
      .where(and(matches(tasksIndex, taskWords), sql`${tasksIndex}.rowid = ${rankedTasks.rowid}`))
      .orderBy(sql`${rankedTasks.score}`, asc(tasks.id)),
    db
      .select({
        id: comments.id,
        taskId: comments.taskId,
        taskText: tasks.text,
        snippet: snippetOf(commentsIndex, 0),
        authorName: users.name,
      })
      .from(rankedComments)
      .crossJoin(commentsIndex)
      .innerJoin(comments, sql`${comments}.rowid = ${rankedComments.rowid}`)
      .innerJoin(tasks, eq(tasks.id, comments.taskId))
      .innerJoin(users, eq(users.id, comments.userId))
      .where(and(matches(commentsIndex, commentWords), sql`${commentsIndex}.rowid = ${rankedComments.rowid}`))
      .orderBy(sql`${rankedComments.score}`, asc(comments.id)),
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
