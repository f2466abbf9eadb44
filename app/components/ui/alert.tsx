import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'

const tones = {
  info: 'border-border bg-muted/50 text-foreground',
  success: 'border-emerald-600/40 bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-50',
  error: 'border-destructive/40 bg-destructive/5 text-destructive',
} as const

/**
 * A message that is the page's answer (a link was invalid, an e-mail went out): readable without
 * JavaScript, where toasts cannot show. Errors are announced at once, the rest politely.
 */
export function Alert({
  tone = 'info',
  className,
  ...props
}: ComponentProps<'div'> & { tone?: keyof typeof tones }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-md border p-4 text-sm leading-relaxed', tones[tone], className)}
      {...props}
    />
  )
}

export function AlertTitle({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('font-semibold', className)} {...props} />
}
