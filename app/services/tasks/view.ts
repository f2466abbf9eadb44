import type { TaskRow } from './reads.server'

/**
 * What a task is to the people who read it: the shapes the task service answers with. Types only,
 * so the browser's components may import them too (the list below is the one value).
 *
 * The view is not written out field by field: it is the row its columns read
 * (`taskViewColumns`, columns.server.ts — the one declaration of a task's fields), as the wire
 * carries it. A column added there is a field here, in every answer and in the lists
 * derived from it (view-fields.ts), with no other edit.
 */

/** A row's values as JSON carries them: an instant as its ISO string. */
type OnTheWire<Row> = {
  [Name in keyof Row]: Row[Name] extends Date
    ? string
    : Row[Name] extends Date | null
      ? string | null
      : Row[Name]
}

/** What toView (reads.server.ts) makes of the row's `shares` for each viewer (docs/decisions/020-who-sees-whom.md). */
export type FromShares = {
  /** The addresses it is shared with: the owner's to know; empty for anyone else. */
  sharedWith: string[]
  /** The names of the people it is shared with (an address, for the owner, where there is none). */
  sharedWithNames: string[]
}

/** The wire shape RPC clients rely on (docs/product-rules.md §5), plus what the list shows of subtasks. */
export type TaskView = OnTheWire<Omit<TaskRow, 'shares' | 'viewerRole'>> & FromShares

/** What a row of the task list shows, and nothing more: the page sends every field it is given. */
export const TASK_LIST_ITEM_FIELDS = [
  'id',
  'text',
  'priority',
  'status',
  'hrs',
  'isPublic',
  'ownerName',
  'subtaskCount',
  'subtasksCompleted',
  'dueDate',
  'assigneeName',
  'assigneeImage',
] as const satisfies readonly (keyof TaskView)[]

export type TaskListItem = Pick<TaskView, (typeof TASK_LIST_ITEM_FIELDS)[number]>
