import { useEffect } from 'react'
import { useRevalidateOnTaskEvents } from './use-revalidate-on-task-events'

/**
 * The task list's live updates as a component that renders nothing: the page loads it after it
 * hydrates, as root.tsx does the mention toasts, so the stream's code is not part of the list's
 * first load. It starts from the event the page's data was read at (the root loader's cursor), so
 * nothing written meanwhile is missed, and tells the page when updates are paused.
 */
export default function TaskListLiveUpdates({
  onPausedChange,
}: {
  onPausedChange: (isPaused: boolean) => void
}) {
  const { isPaused } = useRevalidateOnTaskEvents()
  useEffect(() => onPausedChange(isPaused), [isPaused, onPausedChange])
  return null
}
