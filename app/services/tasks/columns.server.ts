import { and, eq, isNotNull, ne, type SQLWrapper, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { taskShares, tasks, users } from '~/db/schema'
import { ruleSql, type ViewerInSql, viewerPlaceholders } from './rule.server'
import { type FromShares, TASK_LIST_ITEM_FIELDS, type TaskView } from './view'

/**
 * The columns a task is read from, each written once, and the one declaration of a task's fields:
 * `TaskView` (view.ts) is the row they read, and every list of its fields (view-fields.ts) is
 * derived from them. `selectTaskViews` (reads.server.ts) reads them all, the task list's prepared
 * statements (list.server.ts) the fields a row shows. Both join the owner (`users` on
 * `tasks.userId`) for `ownerName`. Their order is the order of the fields in every answer.
 */

// Subqueries are `sql` over drizzle's columns and conditions, not its query builder: a view is
// built on every getTask, and the builder renders a subquery at about twice the cost. An alias
// renders as its name alone, so `FROM ${tasks} ${subtask}` names the table before it.
const subtask = alias(tasks, 'subtask')
const sharer = alias(users, 'sharer')
const assignee = alias(users, 'assignee')

/** The column of `tasks` no reader is given: the search index's, which the database keeps for itself. */
type NotRead = 'searchAudience'

export function taskViewColumns(viewer: ViewerInSql) {
  return {
    id: tasks.id,
    text: tasks.text,
    details: tasks.details,
    refLink: tasks.refLink,
    priority: tasks.priority,
    status: tasks.status,
    isPublic: tasks.isPublic,
    parentTaskId: tasks.parentTaskId,
    hrs: tasks.hrs,
    /** The calendar day it is due (`YYYY-MM-DD`), read in each viewer's own time zone. */
    dueDate: tasks.dueDate,
    /** Whom it is assigned to: a member of its workspace or someone it is shared with; null when nobody. */
    assigneeId: tasks.assigneeId,
    // By primary key, so neither the view's statement nor the list's needs another join.
    assigneeName: sql<
      string | null
    >`(SELECT ${assignee.name} FROM ${users} ${assignee} WHERE ${eq(assignee.id, tasks.assigneeId)})`,
    assigneeImage: sql<
      string | null
    >`(SELECT ${assignee.image} FROM ${users} ${assignee} WHERE ${eq(assignee.id, tasks.assigneeId)})`,
    /** Who created it. */
    userId: tasks.userId,
    /** The workspace it belongs to. */
    workspaceId: tasks.workspaceId,
    completedAt: tasks.completedAt,
    createdAt: tasks.createdAt,
    updatedAt: tasks.updatedAt,
    ownerName: users.name,
    /** The addresses it is shared with, each with the name of a verified account of that address. */
    shares: sql<string>`(SELECT json_group_array(json_object('email', ${taskShares.email}, 'name', CASE WHEN ${and(isNotNull(sharer.emailVerifiedAt), ne(sharer.name, ''))} THEN ${sharer.name} END)) FROM ${taskShares} LEFT JOIN ${users} ${sharer} ON ${eq(sharer.email, taskShares.email)} WHERE ${eq(taskShares.taskId, tasks.id)})`,
    ...subtaskProgressColumns(viewer),
    // Every column of `tasks` is read: one added to the table fails here until it is.
  } satisfies Record<Exclude<keyof typeof tasks.$inferSelect, NotRead>, SQLWrapper> &
    Record<string, SQLWrapper>
}

/** The fields toView makes from `shares`, in the order it adds them after the columns'. */
const FROM_SHARES = { sharedWith: true, sharedWithNames: true } as const satisfies Record<
  keyof FromShares,
  true
>

/**
 * Every field of `TaskView`, in the order an answer carries them, read once from the columns
 * above: no list of names to keep beside them.
 */
export const TASK_VIEW_FIELD_NAMES = [
  ...Object.keys(taskViewColumns(viewerPlaceholders)).filter((name) => name !== 'shares'),
  ...Object.keys(FROM_SHARES),
] as (keyof TaskView & string)[]

/** The columns of a row of the task list: those of the view, for the fields the row shows. */
export function taskListItemColumns(viewer: ViewerInSql) {
  const columns = taskViewColumns(viewer)
  type Field = (typeof TASK_LIST_ITEM_FIELDS)[number]
  return Object.fromEntries(TASK_LIST_ITEM_FIELDS.map((field) => [field, columns[field]])) as Pick<
    typeof columns,
    Field
  >
}

/**
 * A task's subtask progress as correlated subqueries on the parent index. It counts only the
 * subtasks this viewer may open, so a public parent does not reveal how many private subtasks
 * it has.
 */
function subtaskProgressColumns(viewer: ViewerInSql) {
  const visibleSubtask = and(eq(subtask.parentTaskId, tasks.id), ruleSql('see', viewer, subtask))
  return {
    subtaskCount: sql<number>`(SELECT count(*) FROM ${tasks} ${subtask} WHERE ${visibleSubtask})`,
    subtasksCompleted: sql<number>`(SELECT count(*) FROM ${tasks} ${subtask} WHERE ${and(visibleSubtask, eq(subtask.status, 'Completed'))})`,
  }
}
