import type { HTMLAttributes } from 'react'
import { cn } from '~/utils/cn'

/**
 * Tones by colour rather than meaning: the same green says "low priority" on a task and "sent" in
 * the mailbox. Each pairs a light background with dark text, and the reverse in dark mode.
 */
const tones = {
  neutral: 'bg-muted text-muted-foreground',
  outline: 'border text-muted-foreground',
  primary: 'bg-primary text-primary-foreground',
  'primary-soft': 'bg-primary/10 text-primary',
  accent: 'bg-accent text-foreground',
  muted: 'bg-muted text-foreground',
  destructive: 'bg-destructive/10 text-destructive',
  red: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  emerald: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  sky: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
} as const

export type BadgeTone = keyof typeof tones

const weights = { semibold: 'font-semibold', medium: 'font-medium', normal: 'font-normal' } as const

/**
 * A small rounded label: a status, a count, a tag. Pass `as="li"` for a list of tags; `isWide`
 * gives a tag's text a little more room. Beside a name in running text, put a space before it
 * (`{' '}`, with `ml-1` for the rest of the gap): a margin alone draws a gap that the text and a
 * screen reader do not have ("CIRead only").
 */
export function Badge({
  tone = 'neutral',
  weight = 'semibold',
  isWide = false,
  as: Element = 'span',
  className,
  ...props
}: HTMLAttributes<HTMLElement> & {
  tone?: BadgeTone
  weight?: keyof typeof weights
  isWide?: boolean
  as?: 'span' | 'li'
}) {
  return (
    <Element
      className={cn(
        'inline-flex items-center rounded-full py-0.5 text-xs',
        isWide ? 'px-2.5' : 'px-2',
        weights[weight],
        tones[tone],
        className,
      )}
      {...props}
    />
  )
}
