import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor, or wrap their control
  return <label className={cn('text-sm font-medium leading-none', className)} {...props} />
}
