import type { Priority, Status } from '~/domain/constants'

/**
 * What a task is to the people who read it: the shapes the task service answers with. Types only,
 * so the browser's components may import them too.
 */

/** The wire shape RPC clients rely on (docs/product-rules.md §5), plus what the list shows of subtasks. */
export type TaskView = {
  id: string
  text: string
  details: string | null
  refLink: string | null
  priority: Priority
  status: Status
  isPublic: boolean
  parentTaskId: string | null
  sharedWith: string[]
  sharedWithNames: string[]
  ownerName: string
  hrs: number
  /** The calendar day it is due (`YYYY-MM-DD`), read in each viewer's own time zone. */
  dueDate: string | null
  /** Whom it is assigned to: its owner or someone it is shared with; null when nobody. */
  assigneeId: string | null
  assigneeName: string | null
  assigneeImage: string | null
  userId: string
  completedAt: string | null
  createdAt: string
  updatedAt: string
  subtaskCount: number
  subtasksCompleted: number
}

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
