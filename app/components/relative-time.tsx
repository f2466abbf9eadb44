import { useEffect, useState } from 'react'
import { cn } from '~/utils/cn'
import { formatRelativeTime } from '~/utils/relative-time'

/** 'Just now', 'Nm ago', 'Nh ago' or the local date, refreshed every half minute. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(timer)
  }, [])
  return (
    <time
      dateTime={iso}
      title={new Date(iso).toUTCString()}
      className={cn('text-xs text-muted-foreground', className)}
      suppressHydrationWarning
    >
      {formatRelativeTime(iso, now)}
    </time>
  )
}
