import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns'

/**
 * The log of every task and comment change, which event streams and versioned reads read; and of
 * a person's sessions all ending (an admin disabled them or ended them), which ends their streams.
 */
export const events = sqliteTable(
  'events',
  {
    /** The stream cursor (SSE `id`), the one sequential id in the schema. */
    id: integer('id').primaryKey({ autoIncrement: true }),
    topic: text('topic', { enum: ['tasks', 'comments', 'chats', 'accounts'] }).notNull(),
    type: text('type').notNull(),
    /** No foreign key: the event of a deleted task must outlive the task. */
    taskId: text('task_id'),
    payload: text('payload', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('events_task_idx').on(t.taskId, t.id), index('events_created_idx').on(t.createdAt)],
)

/**
 * Counters that version what the event log cannot (docs/decisions/028-reads-versioned-by-the-event-log.md):
 * `people` moves whenever a person's name, picture, address, verification or existence changes
 * (bumped by triggers on `users`, so no write path can forget it); `pruned-events` is the newest
 * event id pruning has deleted.
 */
export const versionCounters = sqliteTable('version_counters', {
  scope: text('scope', { enum: ['people', 'pruned-events'] }).primaryKey(),
  value: integer('value').notNull().default(0),
})
