import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

/** The spec's router timing: show after 1000 ms of pending navigation, then for at least 500 ms. */
export const PENDING_DELAY_MS = 1000
export const PENDING_MIN_MS = 500

export function useDelayedPending(isPending: boolean, delay = PENDING_DELAY_MS, minimum = PENDING_MIN_MS) {
  const [isShown, setIsShown] = useState(false)
  const [shownAt, setShownAt] = useState(0)

  useEffect(() => {
    if (isPending && !isShown) {
      const timer = window.setTimeout(() => {
        setIsShown(true)
        setShownAt(Date.now())
      }, delay)
      return () => window.clearTimeout(timer)
    }
    if (!isPending && isShown) {
      const remaining = Math.max(0, minimum - (Date.now() - shownAt))
      const timer = window.setTimeout(() => setIsShown(false), remaining)
      return () => window.clearTimeout(timer)
    }
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
