import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False in the server's HTML and during hydration, true once React runs in the browser. A control
 * that only JavaScript can re-enable (a Send button waiting for text) must stay usable until
 * then, or it would never work without JavaScript.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
