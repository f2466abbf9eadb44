import { and, asc, eq, gt, lt, lte, max, min, type SQL, sql } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Database, Executor } from '~/db/client.server'
import { events, tasks, versionCounters, workspaceMembers } from '~/db/schema'
import { type Builder, commit, insertIf, prepareStep } from '~/db/write.server'

type TaskEventType = 'task-created' | 'task-updated' | 'task-deleted' | 'task-status-changed'
type CommentEventType =
  | 'comment-added'
  | 'comment-updated'
  | 'comment-deleted'
  | 'reaction-changed'
  | 'mention'
type ChatEventType =
  | 'chat-created'
  | 'chat-renamed'
  | 'chat-deleted'
  | 'chat-sharing-changed'
  | 'chat-message-added'

/**
 * About one person, never about a task. `sessions-ended`: all of their sessions ended
 * (app/services/admin/), so their open streams end at once. `access-changed`: they are no longer
 * in a workspace (removed, left, or it was deleted), so their open pages load their tasks again;
 * no event of that workspace's tasks reaches them any more to say so.
 */
type AccountEventType = 'sessions-ended' | 'access-changed'

export type AppEvent =
  | { topic: 'tasks'; type: TaskEventType; taskId: string; payload: Record<string, unknown> }
  | { topic: 'comments'; type: CommentEventType; taskId: string; payload: Record<string, unknown> }
  | { topic: 'chats'; type: ChatEventType; payload: { chatId: string } & Record<string, unknown> }
  | { topic: 'accounts'; type: AccountEventType; payload: { userId: string } }

/**
 * Appends to the event log, as a statement of the commit of the change it describes
 * (app/db/write.server.ts), so an event exists exactly when its change committed; streams read
 * the log by its id. With `onlyIf`, the row is written only when that condition holds as the
 * commit reaches it: the event of a change the commit's guards skipped is skipped with it.
 */
export function appendEvent(db: Builder, event: AppEvent, onlyIf: SQL = sql`1`) {
  return insertIf(
    db,
    events,
    {
      topic: event.topic,
      type: event.type,
      taskId: 'taskId' in event ? event.taskId : null,
      payload: event.payload,
      createdAt: new Date(),
    },
    onlyIf,
  )
}

/**
 * One event for each row of `from` that `which` selects, as one statement of the commit: `event`
 * gives its columns, read from that row. Name it right before the change, while the rows still
 * answer to `which`.
 */
function appendEventPerRow(
  db: Builder,
  event: { topic: AppEvent['topic']; type: AppEvent['type']; taskId: SQL | null; payload: SQL },
  from: SQLiteTable,
  which: SQL,
) {
  // Every column in the table's order, as insertIf selects them; the id is the log's to give.
  const perRow = db
    .select({
      id: sql`null`,
      topic: sql`${event.topic}`,
      type: sql`${event.type}`,
      taskId: event.taskId ?? sql`null`,
      payload: event.payload,
      createdAt: sql`${Date.now()}`,
    })
    .from(from)
    .where(which)
  return db.insert(events).select(perRow as never)
}

/**
 * appendEvent once for every task `which` selects, for a change one statement makes to many tasks
 * whose ids are known only as the commit reaches it (the assignments cleared as someone leaves a
 * workspace): each event is the one appendEvent would write, its payload `payload` with the
 * task's `taskId`.
 */
export function appendEventPerTask(
  db: Builder,
  event: { topic: 'tasks'; type: TaskEventType; payload: Record<string, unknown> },
  which: SQL,
) {
  const payload = sql`json_set(${JSON.stringify(event.payload)}, '$.taskId', ${tasks.id})`
  return appendEventPerRow(db, { ...event, taskId: sql`${tasks.id}`, payload }, tasks, which)
}

/**
 * An `access-changed` event for each person whose member row `which` selects, for the commit that
 * deletes those rows: name it right before that deletion.
 */
export function appendAccessChanged(db: Builder, which: SQL) {
  const payload = sql`json_object('userId', ${workspaceMembers.userId})`
  const event = { topic: 'accounts', type: 'access-changed', taskId: null, payload } as const
  return appendEventPerRow(db, event, workspaceMembers, which)
}

/**
 * appendEvent with its SQL built once, for the hottest writes (prepareStep): `onlyIf` is fixed
 * when the statement is made, and the placeholders it names are filled from `values` at each append.
 */
export function prepareEvent(onlyIf: SQL = sql`1`) {
  const step = prepareStep((db) =>
    insertIf(
      db,
      events,
      {
        topic: sql.placeholder('eventTopic'),
        type: sql.placeholder('eventType'),
        taskId: sql.placeholder('eventTaskId'),
        payload: sql.placeholder('eventPayload'),
        createdAt: sql.placeholder('eventCreatedAt'),
      },
      onlyIf,
    ),
  )
  return (event: AppEvent, values: Record<string, unknown> = {}) =>
    step({
      ...values,
      eventTopic: event.topic,
      eventType: event.type,
      eventTaskId: 'taskId' in event ? event.taskId : null,
      eventPayload: JSON.stringify(event.payload),
      eventCreatedAt: Date.now(),
    })
}

/** An event as the log holds it: its id is the cursor a stream resumes from. */
export type LoggedEvent = {
  id: number
  topic: AppEvent['topic']
  type: string
  taskId: string | null
  payload: Record<string, unknown>
}

/** How long the log keeps events: a client away for less than this resumes without a gap. */
const EVENT_RETENTION_MS = 24 * 60 * 60 * 1000

const loggedEventColumns = {
  id: events.id,
  topic: events.topic,
  type: events.type,
  taskId: events.taskId,
  payload: events.payload,
}

/** The events after `after`, up to `until` when given, oldest first; of one task when `taskId` is set. */
export function readEventsAfter(
  db: Executor,
  { after, until, taskId, limit }: { after: number; until?: number; taskId?: string; limit: number },
): Promise<LoggedEvent[]> {
  return db
    .select(loggedEventColumns)
    .from(events)
    .where(
      and(
        gt(events.id, after),
        until === undefined ? undefined : lte(events.id, until),
        taskId === undefined ? undefined : eq(events.taskId, taskId),
      ),
    )
    .orderBy(asc(events.id))
    .limit(limit)
}

/**
 * The id of the newest event ever written, 0 for none. AUTOINCREMENT keeps it in
 * `sqlite_sequence`, so it stays known after pruning has emptied the table.
 */
export async function eventLogHead(db: Executor): Promise<number> {
  const [row] = await db.all<{ seq: number }>(sql`SELECT seq FROM sqlite_sequence WHERE name = 'events'`)
  return Number(row?.seq ?? 0)
}

/**
 * Whether a stream can resume after `cursor` without a gap: the cursor is not ahead of the log
 * (a cursor from another database), and the event right after it was not pruned. Ids are
 * consecutive: SQLite writes one transaction at a time, and a rolled-back insert gives its id back.
 */
export async function canResumeAfter(db: Executor, cursor: number, head: number): Promise<boolean> {
  if (cursor > head) return false
  if (cursor === head) return true
  const [oldest] = await db.select({ id: min(events.id) }).from(events)
  return oldest?.id != null && oldest.id <= cursor + 1
}

/**
 * Deletes the events older than the retention period; returns how many went. The newest id it
 * deletes is recorded first, in the same commit: a task whose events are all gone takes
 * that as its version (app/services/read-versions.server.ts), so losing them never rolls a
 * version back to one an earlier answer had.
 */
export async function pruneEvents(db: Database, now = new Date()): Promise<number> {
  const expired = lt(events.createdAt, new Date(now.getTime() - EVENT_RETENTION_MS))
  const newestExpired = db
    .select({ id: max(events.id) })
    .from(events)
    .where(expired)
  const { pruned } = await commit(db, {
    recorded: db
      .update(versionCounters)
      .set({ value: sql`max(${versionCounters.value}, coalesce((${newestExpired}), 0))` })
      .where(eq(versionCounters.scope, 'pruned-events')),
    pruned: db.delete(events).where(expired),
  })
  return pruned.rowsAffected
}
