import type { ComponentProps, ReactNode } from 'react'
import { cn } from '~/utils/cn'

/** A checkbox inside its label, so the whole line toggles it. */
export function Checkbox({
  label,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode }) {
  return (
    <label className={cn('flex items-center gap-2 text-sm', className)}>
      <input type="checkbox" className="size-4 accent-primary" {...props} />
      {label}
    </label>
  )
}
