import { getTableColumns } from 'drizzle-orm'
import { tasks } from '~/db/schema'
import { type TaskFields, TaskFieldsSchema, type TaskUpdate, TaskUpdateSchema } from './task-schemas'

type Field = keyof TaskFields | keyof TaskUpdate
type Column = keyof typeof tasks.$inferSelect

/** A field of the form with a column of its name: createTask and updateTask write it there as it is. */
type EditedColumn = Field & Column

/**
 * How a write treats a name that is not an edited column: a column the form has not is set by the
 * service, except the search index's audience, which the database keeps; `sharedWith` is the
 * task's rows of task_shares. Any other field has no way to be written (`never`), so adding one
 * fails to typecheck until its write is decided here.
 */
type HowWritten<Name> = Name extends Column
  ? Name extends 'searchAudience'
    ? 'kept by the search triggers'
    : 'set by the service'
  : Name extends 'sharedWith'
    ? 'task_shares'
    : never

/**
 * Every field of the task form (task-schemas.ts) and every column of `tasks` (db/schema/tasks.ts)
 * that is not written from the form to the column of its name, and how createTask and updateTask
 * write it. A column added without a form field, or a form field without a column, fails to
 * typecheck until it has its line here; a field and column of one name needs none.
 */
const WRITTEN_OTHERWISE = {
  sharedWith: 'task_shares',
  id: 'set by the service',
  userId: 'set by the service',
  completedAt: 'set by the service',
  searchAudience: 'kept by the search triggers',
  createdAt: 'set by the service',
  updatedAt: 'set by the service',
} as const satisfies { [Name in Exclude<Field | Column, EditedColumn>]: HowWritten<Name> }

const COLUMNS = getTableColumns(tasks)

/** The form's fields that are columns of `tasks`, read once from the schemas and the table. */
const EDITED_COLUMNS = [
  ...new Set([...Object.keys(TaskFieldsSchema.shape), ...Object.keys(TaskUpdateSchema.shape)]),
].filter(
  (name): name is EditedColumn => Object.hasOwn(COLUMNS, name) && !Object.hasOwn(WRITTEN_OTHERWISE, name),
)

/**
 * The columns a create or an update takes from the form's fields, by name. A field an update does
 * not name stays undefined, which drizzle leaves out of the SET.
 */
export function editedColumns<Fields extends TaskFields | TaskUpdate>(
  fields: Fields,
): Pick<Fields, EditedColumn> {
  return Object.fromEntries(EDITED_COLUMNS.map((name) => [name, fields[name]])) as Pick<Fields, EditedColumn>
}
