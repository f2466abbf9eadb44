import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

/** Show after 1000 ms of pending navigation, then for at least 500 ms (docs/product-rules.md §3). */
export const PENDING_DELAY_MS = 1000
export const PENDING_MIN_MS = 500

type PendingState = { isPending: boolean; isShown: boolean; shownAt: number; now: number }

/**
 * The timing rule on its own, so it can be checked without a browser: what the indicator does
 * next and after how many milliseconds, or null while nothing is due.
 */
export function nextPendingChange(
  { isPending, isShown, shownAt, now }: PendingState,
  delay = PENDING_DELAY_MS,
  minimum = PENDING_MIN_MS,
): { isShown: boolean; afterMs: number } | null {
  if (isPending && !isShown) return { isShown: true, afterMs: delay }
  if (!isPending && isShown) return { isShown: false, afterMs: Math.max(0, minimum - (now - shownAt)) }
  return null
}

function useDelayedPending(isPending: boolean, delay = PENDING_DELAY_MS, minimum = PENDING_MIN_MS) {
  const [isShown, setIsShown] = useState(false)
  const [shownAt, setShownAt] = useState(0)

  useEffect(() => {
    const change = nextPendingChange({ isPending, isShown, shownAt, now: Date.now() }, delay, minimum)
    if (!change) return
    const timer = window.setTimeout(() => {
      setIsShown(change.isShown)
      if (change.isShown) setShownAt(Date.now())
    }, change.afterMs)
    return () => window.clearTimeout(timer)
  }, [isPending, isShown, shownAt, delay, minimum])

  return isShown
}

export function PendingIndicator() {
  const navigation = useNavigation()
  const isShown = useDelayedPending(navigation.state !== 'idle')
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      aria-hidden={!isShown}
      className={
        isShown
          ? 'fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-primary transition-opacity'
          : 'pointer-events-none fixed inset-x-0 top-0 z-50 h-1 bg-primary opacity-0 transition-opacity'
      }
    />
  )
}
