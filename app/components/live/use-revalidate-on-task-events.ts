import { useEffect, useRef } from 'react'
import { useRevalidator } from 'react-router'
import { usePolling } from '~/utils/polling'
import { type TaskEvent, useTaskEvents } from './task-events'

/** How often a page showing tasks reloads them while live updates are paused. */
export const TASKS_POLL_MS = 3000
/** Events closer together than this cause one reload. */
const COALESCE_MS = 100

/**
 * For pages that show tasks (the task list, the dashboard): load the page's data again when a
 * task the person may see changes, once for a burst of changes, and every few seconds while the
 * stream is down. React Router keeps what is typed in forms and where the page is scrolled.
 * Returns whether live updates are paused, for `<LiveUpdatesPaused>`.
 */
export function useRevalidateOnTaskEvents(isRelevant: (event: TaskEvent) => boolean = isTaskChange) {
  const { revalidate } = useRevalidator()
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const status = useTaskEvents((event) => {
    if (!isRelevant(event) || timer.current) return
    timer.current = setTimeout(() => {
      timer.current = undefined
      void revalidate()
    }, COALESCE_MS)
  })
  usePolling(() => revalidate(), TASKS_POLL_MS, { enabled: status === 'paused' })
  return { isPaused: status === 'paused' }
}

function isTaskChange(event: TaskEvent) {
  return event.type !== 'mention'
}
