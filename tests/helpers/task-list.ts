/**
 * The fields of a row of the task list, sorted: what a row renders
 * (app/routes/tasks/+parts/task-group.tsx), and all that the list sends of a task.
 */
export const TASK_LIST_ROW_FIELDS = [
  'assigneeImage',
  'assigneeName',
  'dueDate',
  'hrs',
  'id',
  'isPublic',
  'ownerName',
  'priority',
  'status',
  'subtaskCount',
  'subtasksCompleted',
  'text',
] as const

/** Every field of a task on the wire (`task.get`, `task.getAll`), sorted: what the shape tests pin. */
export const TASK_WIRE_FIELDS = [
  'id',
  'text',
  'details',
  'refLink',
  'priority',
  'status',
  'isPublic',
  'parentTaskId',
  'sharedWith',
  'sharedWithNames',
  'ownerName',
  'hrs',
  'dueDate',
  'assigneeId',
  'assigneeName',
  'assigneeImage',
  'userId',
  'completedAt',
  'createdAt',
  'updatedAt',
  'subtaskCount',
  'subtasksCompleted',
].sort()
