import { type ClassValue, clsx } from 'clsx'

/**
 * Joins class names. It does not resolve conflicts between Tailwind classes (tailwind-merge would,
 * for ~9 KB gzip on every page: docs/product-rules.md §6), so a component never lets a caller's
 * `className` restate what its own classes set: what callers may change — size, tone, weight — is
 * a prop, and `className` adds layout (margins, width, visibility).
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs)
}
