import { useEffect, useRef, useSyncExternalStore } from 'react'
import { type LiveEvent, openLiveStream, type StreamStatus, useEventCursor } from './live-stream'

/**
 * The tab's one task stream (`GET /api/events/tasks`), shared by every part of the page that
 * reacts to task changes: the header's mention toasts, the task list, the dashboard. It opens
 * with the first subscriber and closes with the last, so it stays open across navigations while
 * the header is there.
 */

const TASK_EVENT_TYPES = [
  'task-created',
  'task-updated',
  'task-deleted',
  'task-status-changed',
  'mention',
  // The person is no longer in a workspace: its tasks leave whatever shows them.
  'access-changed',
  // The stream could not resume from the page's cursor: whatever shows tasks should reload them.
  'reset',
] as const

export type TaskEvent = LiveEvent & { type: (typeof TASK_EVENT_TYPES)[number] }

const handlers = new Set<(event: TaskEvent) => void>()
const statusListeners = new Set<() => void>()
let stream: { close(): void } | null = null
let status: StreamStatus = 'connecting'

function setStatus(next: StreamStatus) {
  if (next === status) return
  status = next
  for (const listener of statusListeners) listener()
}

function subscribe(handler: (event: TaskEvent) => void, after: number | null) {
  handlers.add(handler)
  stream ??= openLiveStream('/api/events/tasks', {
    types: TASK_EVENT_TYPES,
    after,
    onEvent: (event) => {
      for (const each of handlers) each(event as TaskEvent)
    },
    onStatus: setStatus,
  })
  return () => {
    handlers.delete(handler)
    if (handlers.size > 0) return
    stream?.close()
    stream = null
    setStatus('connecting')
  }
}

function subscribeToStatus(listener: () => void) {
  statusListeners.add(listener)
  return () => statusListeners.delete(listener)
}

/**
 * Calls `handler` with each task event the signed-in person may see (created, updated, deleted,
 * status changed with `oldStatus` and `newStatus`), their own `mention`s, and `access-changed`
 * (no longer in a workspace) and `reset` when they should reload. Returns whether updates are live: while they are not, callers poll instead.
 */
export function useTaskEvents(handler: (event: TaskEvent) => void): StreamStatus {
  const latest = useRef(handler)
  useEffect(() => {
    latest.current = handler
  })
  const after = useEventCursor()
  const firstCursor = useRef(after)
  useEffect(() => subscribe((event) => latest.current(event), firstCursor.current), [])
  return useSyncExternalStore(
    subscribeToStatus,
    () => status,
    () => 'connecting',
  )
}
