import type { tasks } from '~/db/schema'
import type { TaskFields, TaskUpdate } from './task-schemas'

type Field = keyof TaskFields | keyof TaskUpdate
type Column = keyof typeof tasks.$inferSelect

/**
 * How a write treats a name: a field of the form that is a column of `tasks` is written to it; a
 * column the form has not is set by the service, except the search index's audience, which the
 * database keeps; `sharedWith` is the task's rows of task_shares.
 * Any other field has no way to be written (`never`), so adding one fails to typecheck until its
 * write is decided here.
 */
type HowWritten<Name> = Name extends Column
  ? Name extends Field
    ? 'column'
    : Name extends 'searchAudience'
      ? 'kept by the search triggers'
      : 'set by the service'
  : Name extends 'sharedWith'
    ? 'task_shares'
    : never

/**
 * Every field of the task form (task-schemas.ts) and every column of `tasks` (db/schema.ts), and
 * how createTask and updateTask write it. A field or column added without its line here fails to
 * typecheck; a line saying `column` is all a new field needs to be written by both.
 */
const WRITTEN = {
  text: 'column',
  details: 'column',
  refLink: 'column',
  priority: 'column',
  status: 'column',
  hrs: 'column',
  isPublic: 'column',
  parentTaskId: 'column',
  sharedWith: 'task_shares',
  id: 'set by the service',
  userId: 'set by the service',
  dueDate: 'column',
  assigneeId: 'column',
  completedAt: 'set by the service',
  searchAudience: 'kept by the search triggers',
  createdAt: 'set by the service',
  updatedAt: 'set by the service',
} as const satisfies { [Name in Field | Column]: HowWritten<Name> }

type EditedColumn = {
  [Name in keyof typeof WRITTEN]: (typeof WRITTEN)[Name] extends 'column' ? Name : never
}[keyof typeof WRITTEN]

const EDITED_COLUMNS = (Object.keys(WRITTEN) as (keyof typeof WRITTEN)[]).filter(
  (name): name is EditedColumn => WRITTEN[name] === 'column',
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
