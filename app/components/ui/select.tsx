import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'
import { controlClasses } from './input'

/** The browser's own select, styled like the inputs: native on phones, with and without JavaScript. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn('h-9 px-2', controlClasses, className)} {...props} />
}
