import { type FieldMetadata, getInputProps } from '@conform-to/react'
import type { ComponentProps, ReactNode } from 'react'
import { Input, Label } from '~/components/ui/input'
import { cn } from '~/utils/cn'

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

type FieldProps = {
  label: ReactNode
  // Any field of any form: the input only needs its name, id, constraints and errors.
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>
  type?: 'text' | 'email' | 'password' | 'url'
  hint?: ReactNode
  className?: string
} & Pick<ComponentProps<'input'>, 'autoComplete' | 'autoFocus' | 'placeholder'>

/** A labelled input whose errors render beneath it; conform supplies names, ids and constraints. */
export function Field({ label, meta, type = 'text', hint, className, ...inputProps }: FieldProps) {
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <Input {...getInputProps(meta, { type })} key={meta.key} {...inputProps} />
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
