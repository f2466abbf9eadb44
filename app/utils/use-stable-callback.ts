import { useMemo, useRef } from 'react'

/** A callback whose identity never changes, that always runs the latest function. */
export function useStableCallback(callback: () => void) {
  const latest = useRef(callback)
  latest.current = callback
  return useMemo(() => () => latest.current(), [])
}
