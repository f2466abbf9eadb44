import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'

/**
 * What every text-like control shares (input, textarea, select): the border, the focus ring, the
 * disabled look, and a red border while `aria-invalid` says the field has errors.
 */
export const controlClasses = cn(
  'rounded-md border bg-background text-sm shadow-xs transition-colors',
  'placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
  'disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive',
)

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn('flex h-9 w-full px-3 py-1', controlClasses, className)} {...props} />
}
