import { and, asc, eq, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { comments, tasks, users, workspaceMembers } from '~/db/schema'
import { SEARCH_LIMITS } from '~/domain/constants'
import { MARK_END, MARK_START, type Part, type SearchInput, toMatchQuery, toParts } from './search-query'
import { AUDIENCE_COLUMN, COMMENTS_INDEX, type SearchIndex, TASKS_INDEX } from './searched-fields.server'
import type { Actor, Viewer } from './session-user'
import { ruleSql, viewerValues } from './tasks/rule.server'
import { requireMembership } from './workspaces/membership.server'

/**
 * Search over tasks and comments, through the FTS5 indexes that triggers keep in step with every
 * write (drizzle/0007_search.sql, drizzle/0013_search_audience.sql,
 * docs/decisions/039-search-index.md and 046). What a person may find is what they may see. The
 * index narrows first: each row carries its task's audience as words, and a search matches the
 * typed words AND one of the searcher's own (`audienceWords`), so only rows they may see are
 * ranked. The rule decides: each of those is joined to its task and kept only when
 * `TASK_RULES.see` holds, so a private task never shows its title, a snippet of a comment on it,
 * or that it exists. What is searched, and what each field weighs in bm25's ranking, is declared
 * once in app/services/searched-fields.server.ts.
 */

type TaskHit = {
  id: string
  /** The plain title. */
  text: string
  title: Part[]
  /** The best passage of the details, when the task has any. */
  details: Part[] | null
  ownerName: string
}

type CommentHit = { id: string; taskId: string; taskText: string; snippet: Part[]; authorName: string }

export type SearchResults = {
  query: string
  /** Why nothing was searched (an empty or over-long query), for the person to read; else null. */
  message: string | null
  tasks: TaskHit[]
  comments: CommentHit[]
}

const tasksIndex = sql`${sql.identifier(TASKS_INDEX.name)}`
const commentsIndex = sql`${sql.identifier(COMMENTS_INDEX.name)}`

/** Words around a match in a snippet. */
const SNIPPET_WORDS = 16

const marked = (index: SQLWrapper, column: number) =>
  sql<string>`highlight(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END})`
const snippetOf = (index: SQLWrapper, column: number) =>
  sql<string>`snippet(${index}, ${sql.raw(String(column))}, ${MARK_START}, ${MARK_END}, '…', ${sql.raw(String(SNIPPET_WORDS))})`
/** bm25 with the declared weights, one a column of the index (app/services/searched-fields.server.ts). */
const rankOf = (index: SQLWrapper, { weights }: Pick<SearchIndex<string>, 'weights'>) =>
  sql<number>`bm25(${index}, ${sql.raw(weights.map((weight) => weight.toFixed(1)).join(', '))})`
const matches = (index: SQLWrapper, match: string) => sql`${index} MATCH ${match}`
/** A match of the typed words in any of an index's searched fields. */
const inSearched = ({ searched }: Pick<SearchIndex<string>, 'searched'>, match: string) =>
  `{${searched.join(' ')}} : (${match})`
const anyOf = (words: string[]) => words.map((word) => `"${word}"`).join(' OR ')
const inAudience = (words: string[]) => `${AUDIENCE_COLUMN} : (${anyOf(words)})`

const hex = (value: string) => Buffer.from(value, 'utf8').toString('hex')
const workspaceWord = (id: string) => `w${hex(id)}`

/** The ids of the workspaces a person is in: their rows carry one word each. */
async function workspacesOf(db: Database, personId: string) {
  const rows = await db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, personId))
  return rows.map((row) => row.id)
}

async function audienceOf(db: Database, viewer: Viewer) {
  const { id, email } = viewerValues(viewer)
  const workspaces = id ? await workspacesOf(db, id) : []
  return ['p', ...workspaces.map(workspaceWord), ...(email ? [`s${hex(email)}`] : [])]
}

/**
 * The audience words a viewer's rows carry, as `task_audiences` (drizzle/0014_workspaces.sql)
 * writes them: each workspace they are in (`w`), public (`p`), and their verified address (`s`),
 * in hex. A visitor matches only public rows. A match query's alternatives, for the index's
 * `search_audience` column.
 */
export const audienceWords = async (db: Database, viewer: Viewer) => anyOf(await audienceOf(db, viewer))

/** Which rows a search ranks: the index's audience words, and what the task itself must hold. */
type Among = { words: string[]; task: SQL | undefined }

function findTasks(db: Database, among: Among, match: string, limit: number) {
  const taskWords = inSearched(TASKS_INDEX, match)
  // Two steps: the matches the viewer may see are ranked and cut to the page first; only then are
  // the page's rows highlighted. In one step SQLite would build a snippet for every match before
  // sorting (re-reading each text), thousands of them for a common word.
  const ranked = db
    .select({
      rowid: sql<number>`${tasksIndex}.rowid`.as('task_rowid'),
      score: rankOf(tasksIndex, TASKS_INDEX).as('task_score'),
    })
    .from(tasksIndex)
    .innerJoin(tasks, sql`${tasks}.rowid = ${tasksIndex}.rowid`)
    .where(and(matches(tasksIndex, `${taskWords} AND ${inAudience(among.words)}`), among.task))
    .orderBy(sql`task_score`, asc(tasks.id))
    .limit(limit)
    .as('ranked_tasks')
  return (
    db
      .select({
        id: tasks.id,
        text: tasks.text,
        details: tasks.details,
        title: marked(tasksIndex, TASKS_INDEX.columnOf('text')),
        snippet: snippetOf(tasksIndex, TASKS_INDEX.columnOf('details')),
        ownerName: users.name,
      })
      // CROSS JOIN keeps the page outermost: each of its rows is looked up in the index by rowid.
      .from(ranked)
      .crossJoin(tasksIndex)
      .innerJoin(tasks, sql`${tasks}.rowid = ${ranked.rowid}`)
      .innerJoin(users, eq(users.id, tasks.userId))
      // Marking the page's rows (found by rowid) needs the typed words only.
      .where(and(matches(tasksIndex, taskWords), sql`${tasksIndex}.rowid = ${ranked.rowid}`))
      .orderBy(sql`${ranked.score}`, asc(tasks.id))
      .then((rows) =>
        rows.map(
          (row): TaskHit => ({
            id: row.id,
            text: row.text,
            title: toParts(row.title),
            details: row.details ? toParts(row.snippet) : null,
            ownerName: row.ownerName || 'Unknown User',
          }),
        ),
      )
  )
}

function findComments(db: Database, among: Among, match: string, limit: number) {
  const commentWords = inSearched(COMMENTS_INDEX, match)
  const ranked = db
    .select({
      rowid: sql<number>`${commentsIndex}.rowid`.as('comment_rowid'),
      score: rankOf(commentsIndex, COMMENTS_INDEX).as('comment_score'),
    })
    .from(commentsIndex)
    .innerJoin(comments, sql`${comments}.rowid = ${commentsIndex}.rowid`)
    .innerJoin(tasks, eq(tasks.id, comments.taskId))
    .where(
      and(
        matches(commentsIndex, `${commentWords} AND ${inAudience(among.words)}`),
        isNull(comments.deletedAt),
        among.task,
      ),
    )
    .orderBy(sql`comment_score`, asc(comments.id))
    .limit(limit)
    .as('ranked_comments')
  return db
    .select({
      id: comments.id,
      taskId: comments.taskId,
      taskText: tasks.text,
      snippet: snippetOf(commentsIndex, COMMENTS_INDEX.columnOf('content')),
      authorName: users.name,
    })
    .from(ranked)
    .crossJoin(commentsIndex)
    .innerJoin(comments, sql`${comments}.rowid = ${ranked.rowid}`)
    .innerJoin(tasks, eq(tasks.id, comments.taskId))
    .innerJoin(users, eq(users.id, comments.userId))
    .where(and(matches(commentsIndex, commentWords), sql`${commentsIndex}.rowid = ${ranked.rowid}`))
    .orderBy(sql`${ranked.score}`, asc(comments.id))
    .then((rows) =>
      rows.map(
        (row): CommentHit => ({
          id: row.id,
          taskId: row.taskId,
          taskText: row.taskText,
          snippet: toParts(row.snippet),
          authorName: row.authorName || 'Unknown User',
        }),
      ),
    )
}

/**
 * Within one workspace the searcher is in (NotFound for any other, as for an unknown one), its
 * audience word alone reaches every row the searcher may see there.
 */
async function amongIn(
  db: Database,
  searcher: Actor,
  workspaceId: string,
  task: SQL | undefined,
): Promise<Among> {
  await requireMembership(db, searcher.id, workspaceId)
  return { words: [workspaceWord(workspaceId)], task: and(task, eq(tasks.workspaceId, workspaceId)) }
}

export async function search(db: Database, viewer: Actor, input: SearchInput): Promise<SearchResults> {
  const query = input.query
  const parsed = toMatchQuery(query)
  if ('message' in parsed) return { query, message: parsed.message, tasks: [], comments: [] }
  const limit = input.limit ?? SEARCH_LIMITS.results.default
  // The rows the viewer's audience words reach are ranked; the rule decides each of them.
  const sees = ruleSql('see', viewerValues(viewer))
  const among: Among =
    input.workspaceId === undefined
      ? { words: await audienceOf(db, viewer), task: sees }
      : await amongIn(db, viewer, input.workspaceId, sees)
  const [taskHits, commentHits] = await Promise.all([
    findTasks(db, among, parsed.match, limit),
    findComments(db, among, parsed.match, limit),
  ])
  return { query, message: null, tasks: taskHits, comments: commentHits }
}

/**
 * The tasks a person owns that hold the typed words, best first (the assistant's task search):
 * the search above, of the tasks they created. The rule decides, not their workspaces: a task they
 * created in a workspace they have left is still theirs to find while they may see it (public, or
 * shared with them), as the assistant lists it (docs/product-rules.md §1).
 */
export async function searchOwnTasks(
  db: Database,
  owner: Actor,
  input: SearchInput,
): Promise<Pick<SearchResults, 'query' | 'message' | 'tasks'>> {
  const query = input.query
  const parsed = toMatchQuery(query)
  if ('message' in parsed) return { query, message: parsed.message, tasks: [] }
  const own = and(eq(tasks.userId, owner.id), ruleSql('see', viewerValues(owner)))
  const among: Among =
    input.workspaceId === undefined
      ? { words: await audienceOf(db, owner), task: own }
      : await amongIn(db, owner, input.workspaceId, own)
  const limit = input.limit ?? SEARCH_LIMITS.results.default
  return { query, message: null, tasks: await findTasks(db, among, parsed.match, limit) }
}
