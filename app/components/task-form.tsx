import {
  Field,
  type FieldConstraint,
  type FieldMeta,
  plainField,
  SelectField,
  TextareaField,
} from '~/components/forms'
import { TASK_LIMITS } from '~/domain/constants'
import type { TaskView } from '~/services/tasks/view'

/**
 * Whom a new task is shared with: addresses separated by commas or lines. The addresses are a
 * list, so their errors belong to its items and are gathered here.
 */
export function ShareWithField({ meta }: { meta: FieldMeta & { allErrors?: Record<string, string[]> } }) {
  return (
    <TextareaField
      label="Share with (e-mail addresses)"
      meta={meta}
      errors={meta.allErrors ? Object.values(meta.allErrors).flat() : undefined}
      rows={2}
      placeholder="grace@example.com, alan@example.com"
    />
  )
}

/** The fields a task is created and edited with. */
export type TaskFormFields = Record<
  'text' | 'details' | 'refLink' | 'priority' | 'status' | 'hrs' | 'dueDate',
  FieldMeta
>

/**
 * The task's fields as the browser checks them where no script does: the limits the schema in
 * `services/tasks/task-schemas.ts` is built from, so the two cannot disagree (its test renders them).
 */
export const TASK_FIELD_CONSTRAINTS = {
  text: TASK_LIMITS.text,
  details: TASK_LIMITS.details,
  refLink: TASK_LIMITS.refLink,
  hrs: TASK_LIMITS.hrs,
} satisfies Record<string, FieldConstraint>

/**
 * A task's title, details, link, priority, status and hours: the same labels, controls and errors
 * beside each field wherever a task is written, creating on /task and editing in the task modal.
 * The caller owns the <form> (where it posts, what it validates, its buttons); `fields` are
 * conform's, or `plainTaskFields` for a form the browser checks. `isNew` adds the hints a blank
 * form shows.
 */
export function TaskForm({
  fields,
  priorities,
  statuses,
  isNew = false,
}: {
  fields: TaskFormFields
  priorities: readonly string[]
  statuses: readonly string[]
  isNew?: boolean
}) {
  return (
    <>
      <Field label="Title" meta={fields.text} placeholder={isNew ? 'What needs doing?' : undefined} />
      <TextareaField label="Details" meta={fields.details} rows={3} />
      <Field
        label="Reference link"
        meta={fields.refLink}
        type="url"
        placeholder={isNew ? 'https://…' : undefined}
      />
      <div className="grid grid-cols-3 gap-3">
        <SelectField label="Priority" meta={fields.priority} options={priorities} />
        <SelectField label="Status" meta={fields.status} options={statuses} />
        <Field label="Hours" meta={fields.hrs} type="number" />
      </div>
      <Field label="Due date" meta={fields.dueDate} type="date" />
    </>
  )
}

/** A task's fields for a form without conform, filled with its values and the browser's checks. */
export function plainTaskFields(
  idPrefix: string,
  task: Pick<TaskView, 'text' | 'details' | 'refLink' | 'priority' | 'status' | 'hrs' | 'dueDate'>,
): TaskFormFields {
  const id = (name: string) => `${idPrefix}-${name}`
  return {
    text: plainField(id('text'), 'text', task.text, TASK_FIELD_CONSTRAINTS.text),
    details: plainField(id('details'), 'details', task.details ?? '', TASK_FIELD_CONSTRAINTS.details),
    refLink: plainField(id('ref'), 'refLink', task.refLink ?? '', TASK_FIELD_CONSTRAINTS.refLink),
    priority: plainField(id('priority'), 'priority', task.priority),
    status: plainField(id('status'), 'status', task.status),
    hrs: plainField(id('hrs'), 'hrs', String(task.hrs), TASK_FIELD_CONSTRAINTS.hrs),
    dueDate: plainField(id('due'), 'dueDate', task.dueDate ?? ''),
  }
}
