import { useState } from 'react'
import { cn } from '~/utils/cn'

/** First letter of each word of the name, at most two, upper case; `U` without a name. */
export function initials(name: string | null | undefined) {
  const letters = (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0])
    .join('')
    .slice(0, 2)
    .toUpperCase()
  return letters || 'U'
}

const sizes = {
  sm: 'size-6 text-[0.625rem]',
  md: 'size-8 text-xs',
  lg: 'size-12 text-base',
  xl: 'size-14 text-lg',
} as const

export function Avatar({
  name,
  image,
  size = 'md',
  className,
}: {
  name: string | null | undefined
  image?: string | null
  size?: keyof typeof sizes
  className?: string
}) {
  const [isBroken, setIsBroken] = useState(false)
  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted font-semibold',
        sizes[size],
        className,
      )}
    >
      <span aria-hidden={Boolean(image && !isBroken)}>{initials(name)}</span>
      {image && !isBroken ? (
        // biome-ignore lint/a11y/noNoninteractiveElementInteractions: onError is a load event, not an interaction
        <img
          src={image}
          alt={name ?? 'User avatar'}
          className="absolute inset-0 size-full object-cover"
          onError={() => setIsBroken(true)}
        />
      ) : null}
    </span>
  )
}
