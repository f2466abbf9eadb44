import type { ComponentProps, ReactNode } from 'react'
import { cn } from '~/utils/cn'
import { Icon } from './icon'

const variants = {
  default: 'bg-primary text-primary-foreground hover:bg-primary/90',
  outline: 'border bg-background hover:bg-muted',
  ghost: 'hover:bg-muted',
  destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
  link: 'text-primary underline-offset-4 hover:underline',
  /** On a primary-coloured band: the page's background colour, and an outline in the band's text colour. */
  inverse: 'bg-background text-foreground hover:bg-background/90',
  'inverse-outline':
    'border border-primary-foreground/60 text-primary-foreground hover:bg-primary-foreground/10',
} as const

const sizes = {
  default: 'h-9 px-4 py-2',
  sm: 'h-8 px-3 text-sm',
  lg: 'h-10 px-6',
  icon: 'size-9',
  'icon-sm': 'size-8',
} as const

export type ButtonVariant = keyof typeof variants
export type ButtonSize = keyof typeof sizes

/** Shared by <Button> and links styled as buttons, so both look and focus the same. */
export function buttonClasses(
  variant: ButtonVariant = 'default',
  size: ButtonSize = 'default',
  className?: string,
) {
  return cn(
    'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors',
    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
    'disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  )
}

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />
}

/**
 * A submit button that shows its form is on its way: disabled (so it cannot be sent twice),
 * `aria-busy`, a spinner and the pending text. Pair it with `useIsPending` (a `<Form>`) or a
 * fetcher's state, and submit the form through `useSubmitOnce`, which disables the button before
 * a second click can land.
 */
export function StatusButton({
  isPending,
  pendingText,
  disabled,
  children,
  type = 'submit',
  ...props
}: ComponentProps<typeof Button> & { isPending: boolean; pendingText?: ReactNode }) {
  return (
    <Button type={type} disabled={disabled || isPending} aria-busy={isPending || undefined} {...props}>
      {isPending ? (
        <>
          <Icon name="spinner" className="size-4 animate-spin" />
          {pendingText ?? children}
        </>
      ) : (
        children
      )}
    </Button>
  )
}
