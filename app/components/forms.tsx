import type { SubmissionResult } from '@conform-to/react'
import type { ComponentProps, ReactNode } from 'react'
import { Checkbox } from '~/components/ui/checkbox'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { Select } from '~/components/ui/select'
import { Textarea } from '~/components/ui/textarea'
import { cn } from '~/utils/cn'

/**
 * What a field component needs to know about its field. conform's field metadata (`fields.text`
 * from `useForm`) is one. A form that leaves checking to the browser and the server builds one
 * with `plainField`, or `repliedField` to show what the server answered: the task modal and the
 * create form on /task do, because conform's form state and zod add ~40 KB gzip to a page, and
 * computing every field's metadata on each render is a cost the task list does not need.
 */
export type FieldMeta = {
  id: string
  name: string
  /** conform's form id, so a control outside its <form> still belongs to it. */
  formId?: string | undefined
  /** conform's key: a new one remounts the control, showing the form's reset value. */
  key?: string | undefined
  initialValue?: unknown
  errorId: string
  errors?: string[] | undefined
  required?: boolean | undefined
  minLength?: number | undefined
  maxLength?: number | undefined
  min?: string | number | undefined
  max?: string | number | undefined
  step?: string | number | undefined
}

/** The browser's own checks on a field, as `required`, `minLength`… attributes. */
export type FieldConstraint = Pick<FieldMeta, 'required' | 'minLength' | 'maxLength' | 'min' | 'max' | 'step'>

/** A field of a form without conform: an id, a name, the value it starts with and its constraints. */
export function plainField(
  id: string,
  name: string,
  initialValue?: string,
  constraint: FieldConstraint = {},
): FieldMeta {
  return { id, name, initialValue, errorId: `${id}-error`, ...constraint }
}

/** conform's answer to a refused form (`submission.reply()`), as an action returns it. */
export type FormReply = SubmissionResult<string[]>

/**
 * A field of a form the server alone validates: after a refused submission, the value sent and
 * the server's errors for it (and for its items, `name[0]`…, when the field is a list); else
 * `initialValue`.
 */
export function repliedField(
  reply: FormReply | undefined,
  id: string,
  name: string,
  initialValue?: string,
  constraint: FieldConstraint = {},
): FieldMeta {
  const sent = reply?.initialValue?.[name]
  const errors = Object.entries(reply?.error ?? {}).flatMap(([key, messages]) =>
    key === name || key.startsWith(`${name}[`) ? (messages ?? []) : [],
  )
  return {
    ...plainField(id, name, typeof sent === 'string' ? sent : reply ? '' : initialValue, constraint),
    errors: errors.length > 0 ? errors : undefined,
  }
}

/** The errors of a refused form that belong to no field. */
export function formErrors(reply: FormReply | undefined) {
  return reply?.error?.[''] ?? undefined
}

/**
 * The attributes every control of a field carries, as conform's `getInputProps` sets them: the
 * id the label points at, the name, the starting value, and `aria-invalid` with the errors'
 * id while the field has errors.
 */
function controlProps(meta: FieldMeta) {
  const isInvalid = meta.errors !== undefined
  return {
    id: meta.id,
    name: meta.name,
    form: meta.formId,
    required: meta.required || undefined,
    'aria-invalid': isInvalid || undefined,
    'aria-describedby': isInvalid ? meta.errorId : undefined,
    defaultValue: typeof meta.initialValue === 'string' ? meta.initialValue : undefined,
  }
}

/** Errors of a field or form, announced to screen readers and tied to the input by id. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const shown = errors?.filter(Boolean)
  if (!shown?.length) return null
  return (
    <ul id={id} className="flex flex-col gap-1 text-sm text-destructive" aria-live="polite">
      {shown.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  )
}

/** A label above its control and the errors beneath it: the shape every field shares. */
function FieldFrame({
  label,
  meta,
  hint,
  errors = meta.errors,
  className,
  children,
}: {
  label: ReactNode
  meta: FieldMeta
  hint?: ReactNode
  errors?: string[] | undefined
  className?: string
  children: ReactNode
}) {
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <ErrorList id={meta.errorId} errors={errors} />
    </div>
  )
}

type FieldProps = {
  label: ReactNode
  meta: FieldMeta
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'date'
  hint?: ReactNode
  className?: string
} & Pick<
  ComponentProps<'input'>,
  | 'autoComplete'
  | 'autoFocus'
  | 'placeholder'
  | 'inputMode'
  | 'pattern'
  | 'maxLength'
  | 'spellCheck'
  | 'required'
>

/** A labelled input whose errors render beneath it; conform supplies names, ids and constraints. */
export function Field({ label, meta, type = 'text', hint, className, ...inputProps }: FieldProps) {
  return (
    <FieldFrame label={label} meta={meta} hint={hint} className={className}>
      <Input
        {...controlProps(meta)}
        key={meta.key}
        type={type}
        minLength={meta.minLength}
        maxLength={meta.maxLength}
        min={meta.min}
        max={meta.max}
        step={meta.step}
        {...inputProps}
      />
    </FieldFrame>
  )
}

/**
 * A labelled textarea. `errors` replaces the field's own where a field is a list (e-mail
 * addresses), whose errors belong to its items.
 */
export function TextareaField({
  label,
  meta,
  errors,
  className,
  ...textareaProps
}: {
  label: ReactNode
  meta: FieldMeta
  errors?: string[] | undefined
  className?: string
} & Pick<ComponentProps<'textarea'>, 'rows' | 'placeholder'>) {
  return (
    <FieldFrame label={label} meta={meta} errors={errors ?? meta.errors} className={className}>
      <Textarea
        {...controlProps(meta)}
        key={meta.key}
        minLength={meta.minLength}
        maxLength={meta.maxLength}
        {...textareaProps}
      />
    </FieldFrame>
  )
}

/** An option of a select: a value shown as itself, or a value with a label of its own. */
export type SelectOption = string | { value: string; label: string }

/** A labelled select. `emptyOption` is the label of a first option whose value is empty. */
export function SelectField({
  label,
  meta,
  options,
  emptyOption,
  className,
}: {
  label: ReactNode
  meta: FieldMeta
  options: readonly SelectOption[]
  emptyOption?: string
  className?: string
}) {
  return (
    <FieldFrame label={label} meta={meta} className={className}>
      <Select {...controlProps(meta)} key={meta.key}>
        {emptyOption === undefined ? null : <option value="">{emptyOption}</option>}
        {options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option
          return (
            <option key={value} value={value}>
              {label}
            </option>
          )
        })}
      </Select>
    </FieldFrame>
  )
}

/** A checkbox field: checked when the field's value is conform's 'on'. */
export function CheckboxField({ label, meta }: { label: ReactNode; meta: FieldMeta }) {
  const { defaultValue: _value, ...props } = controlProps(meta)
  return (
    <Checkbox
      {...props}
      key={meta.key}
      value="on"
      defaultChecked={meta.initialValue === 'on'}
      label={label}
    />
  )
}
