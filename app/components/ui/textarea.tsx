import type { ComponentProps } from 'react'
import { cn } from '~/utils/cn'
import { controlClasses } from './input'

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn('block w-full resize-y px-3 py-2', controlClasses, className)} {...props} />
}
