import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'

/** A placeholder while content loads: a rounded box, or a circle where an avatar will be. */
export function Skeleton({
  shape = 'box',
  className,
  ...props
}: ComponentProps<'div'> & { shape?: 'box' | 'circle' }) {
  return (
    <div
      aria-hidden
      className={cn('animate-pulse bg-muted', shape === 'circle' ? 'rounded-full' : 'rounded-md', className)}
      {...props}
    />
  )
}
