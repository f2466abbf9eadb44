import type { Mentionable } from '~/utils/mentions'
import type { CommentView } from '../comment-views.server'
import { TASK_VIEW_FIELD_NAMES } from './columns.server'
import type { TaskView } from './view'

/**
 * The fields of each view a client receives, at run time. The versioned reads' ETags are derived
 * from them (a new field changes the ETag, so no client is told its older answer is current), the
 * AI tools pass the task's on, and tests/integration/task-fields.test.ts demands each of them from
 * every path a task is read through. The task's are read from its columns (columns.server.ts),
 * the one place its fields are declared; the others are checked against their types with
 * `satisfies`, so `tsc` fails when a field of the type is missing here or a field here is not in
 * the type.
 */

/** Every field of `T`, each `true`, or the fields of its items for an object or a list of objects. */
export type ViewShape<T> = {
  [K in keyof T]-?: FieldShape<NonNullable<T[K]>>
}
type FieldShape<V> = V extends readonly (infer Item)[]
  ? Item extends object
    ? ViewShape<Item>
    : true
  : V extends object
    ? ViewShape<V>
    : true

export type TaskViewField = keyof TaskView

/** The task view's fields, as its columns declare them (columns.server.ts), in the order answers carry them. */
export const TASK_VIEW_FIELDS: TaskViewField[] = TASK_VIEW_FIELD_NAMES

export const TASK_VIEW_SHAPE = Object.fromEntries(TASK_VIEW_FIELDS.map((field) => [field, true])) as {
  [Field in TaskViewField]: true
} satisfies ViewShape<TaskView>

export const COMMENT_VIEW_SHAPE = {
  id: true,
  taskId: true,
  userId: true,
  userName: true,
  userImage: true,
  content: true,
  createdAt: true,
  updatedAt: true,
  parentCommentId: true,
  reactions: true,
  editedAt: true,
  isDeleted: true,
  revisions: { content: true, createdAt: true },
} satisfies ViewShape<CommentView>

export const MENTIONABLE_SHAPE = {
  id: true,
  name: true,
  email: true,
  image: true,
} satisfies ViewShape<Mentionable>
