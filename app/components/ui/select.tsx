import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'
import { controlClasses } from './input'

/** The browser's own select, styled like the inputs: native on phones, with and without JavaScript. */
export function Select({
  size = 'default',
  className,
  ...props
}: Omit<ComponentProps<'select'>, 'size'> & { size?: 'default' | 'sm' }) {
  return (
    <select className={cn(size === 'sm' ? 'h-8' : 'h-9', 'px-2', controlClasses, className)} {...props} />
  )
}
