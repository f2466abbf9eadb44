import { sql } from 'drizzle-orm'
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
} from 'drizzle-orm/sqlite-core'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { users } from './accounts'
import { createdAt, id, ms, updatedAt } from './columns'
import { workspaces } from './workspaces'

/** Tasks and the addresses they are shared with. */
export const tasks = sqliteTable(
  'tasks',
  {
    id: id(),
    /** Who created it. Creating a task gives no access of its own: its workspace does (docs/product-rules.md §1). */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace it belongs to; a subtask is always in its parent's. */
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    details: text('details'),
    refLink: text('ref_link'),
    priority: text('priority', { enum: PRIORITIES }).notNull().default('medium'),
    status: text('status', { enum: STATUSES }).notNull().default('Not Started'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(false),
    parentTaskId: text('parent_task_id').references((): AnySQLiteColumn => tasks.id, {
      onDelete: 'cascade',
    }),
    hrs: integer('hrs').notNull().default(1),
    /** The calendar day it is due, `YYYY-MM-DD`: no time and no zone (each person reads it in their own). */
    dueDate: text('due_date'),
    /** The one person it is assigned to: its owner or someone it is shared with (docs/product-rules.md). */
    assigneeId: text('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    completedAt: ms('completed_at'),
    /**
     * Who may see it, as words the search index matches on (drizzle/0013_search_audience.sql):
     * kept by triggers from its owner, `is_public` and shares; no service writes or reads it.
     */
    searchAudience: text('search_audience'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tasks_user_created_idx').on(t.userId, t.createdAt),
    index('tasks_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('tasks_user_status_idx').on(t.userId, t.status),
    // The dashboard's aggregates read only these (app/services/stats.server.ts): its per-person
    // totals and its completions by day never touch the table's rows.
    index('tasks_user_completed_idx').on(t.userId, t.completedAt, t.parentTaskId, t.hrs, t.createdAt),
    index('tasks_user_stats_idx').on(t.userId, t.parentTaskId, t.status, t.priority, t.hrs),
    index('tasks_public_created_idx').on(t.isPublic, t.createdAt).where(sql`${t.isPublic} = 1`),
    index('tasks_parent_idx').on(t.parentTaskId),
    // "Overdue", "due this week" and the reminders read tasks by the day they are due.
    index('tasks_user_due_idx').on(t.userId, t.dueDate).where(sql`${t.dueDate} IS NOT NULL`),
    index('tasks_due_idx').on(t.dueDate).where(sql`${t.dueDate} IS NOT NULL`),
    index('tasks_assignee_due_idx').on(t.assigneeId, t.dueDate).where(sql`${t.assigneeId} IS NOT NULL`),
    // The same reads for the workspace a person works in (the dashboard, the list's count): its
    // totals, completions by day and due dates from the index alone.
    index('tasks_workspace_stats_idx').on(t.workspaceId, t.parentTaskId, t.status, t.priority, t.hrs),
    index('tasks_workspace_completed_idx').on(
      t.workspaceId,
      t.completedAt,
      t.parentTaskId,
      t.hrs,
      t.createdAt,
    ),
    index('tasks_workspace_due_idx').on(t.workspaceId, t.dueDate).where(sql`${t.dueDate} IS NOT NULL`),
    check('tasks_hrs_range', sql`${t.hrs} BETWEEN 1 AND 8`),
    check('tasks_priority_valid', sql`${t.priority} IN ('high', 'medium', 'low')`),
    check('tasks_status_valid', sql`${t.status} IN ('Not Started', 'In Progress', 'Completed')`),
  ],
)

export const taskShares = sqliteTable(
  'task_shares',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    /** Lower-cased. Access follows once a user has verified this address. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.email] }), index('task_shares_email_idx').on(t.email, t.taskId)],
)

/**
 * The due-date reminders sent: one row per task and day, claimed in the commit that queues the
 * e-mail, so no task is reminded of twice for a day across restarts, instances and workers.
 */
export const dueReminders = sqliteTable(
  'due_reminders',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    dueDate: text('due_date').notNull(),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.dueDate] }),
    index('due_reminders_recipient_idx').on(t.recipientId),
  ],
)

export type Task = typeof tasks.$inferSelect
