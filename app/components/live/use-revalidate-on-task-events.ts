import { useEffect, useRef } from 'react'
import { useFetchers, useNavigation, useRevalidator } from 'react-router'
import { usePolling } from '~/utils/polling'
import { type TaskEvent, useTaskEvents } from './task-events'

/** How often a page showing tasks reloads them while live updates are paused. */
const TASKS_POLL_MS = 3000
/** Events closer together than this cause one reload (a deletion's subtasks arrive together). */
const COALESCE_MS = 100

/**
 * For pages that show tasks (the task list, the dashboard): load the page's data again when a
 * task the person may see changes, once for a burst of changes, and every few seconds while the
 * stream is down. React Router keeps what is typed in forms and where the page is scrolled.
 *
 * One exception: when the task open in the modal (`?task=`) was deleted, reloading would swap the
 * modal for 'Task not found' and take the person's draft with it; the modal's comment stream
 * says it is gone instead, and the list is fresh again once the modal closes.
 *
 * Returns whether live updates are paused, for `<LiveUpdatesPaused>`.
 */
export function useRevalidateOnTaskEvents(isRelevant: (event: TaskEvent) => boolean = isTaskChange) {
  const { revalidate } = useRevalidator()
  // While the person's own form is on its way, a reload would cut off the one it brings (and the
  // toast that comes with it): the event waits, and the page reloads once it is idle.
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const isBusy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle')
  const isDue = useRef(false)
  const pending = useRef<TaskEvent[] | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const latest = useRef({ isBusy, revalidate })
  useEffect(() => {
    latest.current = { isBusy, revalidate }
    if (!isBusy && isDue.current) {
      isDue.current = false
      void revalidate()
    }
  })
  useEffect(() => () => clearTimeout(timer.current), [])
  const status = useTaskEvents((event) => {
    if (!isRelevant(event)) return
    if (pending.current) return void pending.current.push(event)
    pending.current = [event]
    timer.current = setTimeout(() => {
      const events = pending.current ?? []
      pending.current = null
      const openTaskId = new URLSearchParams(window.location.search).get('task')
      if (events.some((each) => each.type === 'task-deleted' && each.data.taskId === openTaskId)) return
      if (latest.current.isBusy) isDue.current = true
      else void latest.current.revalidate()
    }, COALESCE_MS)
  })
  usePolling(() => revalidate(), TASKS_POLL_MS, { enabled: status === 'paused' })
  return { isPaused: status === 'paused' }
}

function isTaskChange(event: TaskEvent) {
  return event.type !== 'mention'
}
