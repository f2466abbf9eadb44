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
