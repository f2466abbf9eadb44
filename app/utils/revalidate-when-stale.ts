import { useEffect, useRef } from 'react'
import { useRevalidator } from 'react-router'
import { useStableCallback } from './use-stable-callback'

/** How long a page's data counts as fresh: the dashboard's numbers are stale after 1 s. */
const STALE_AFTER_MS = 1000

/**
 * Loads the page's data again when the person comes back to the tab (it becomes visible, or the
 * window regains focus) and what it shows is older than `staleMs`: one `revalidate()` runs every
 * loader of the page, so every number on it is fresh at once. `loadedData` is the loader's data,
 * whose every new value resets the clock. Event streams push changes while the tab is open; this
 * covers the time it spent in the background.
 */
export function useRevalidateWhenStale(loadedData: unknown, staleMs = STALE_AFTER_MS) {
  const { revalidate } = useRevalidator()
  const freshAt = useRef(0)
  useEffect(() => {
    freshAt.current = loadedData ? Date.now() : 0
  }, [loadedData])
  const onReturn = useStableCallback(() => {
    if (document.visibilityState !== 'visible' || Date.now() - freshAt.current < staleMs) return
    freshAt.current = Date.now()
    void revalidate()
  })
  useEffect(() => {
    document.addEventListener('visibilitychange', onReturn)
    window.addEventListener('focus', onReturn)
    return () => {
      document.removeEventListener('visibilitychange', onReturn)
      window.removeEventListener('focus', onReturn)
    }
  }, [onReturn])
}
