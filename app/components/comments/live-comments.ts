import { ORPCError } from '@orpc/client'
import { useEffect, useRef, useState } from 'react'
import { openLiveStream, type StreamStatus, useEventCursor } from '~/components/live/live-stream'
import type { CommentView } from '~/services/comment-views.server'
import { STOP_POLLING, usePolling } from '~/utils/polling'
import { fetchRpc } from '~/utils/rpc-client'

/**
 * How the comments section stays fresh: the task's comment stream, and polling /api/rpc while
 * the stream is down. Everything about the transport is in this file; the section only calls
 * `useLiveComments`.
 */

/** The product's comment polling interval (docs/product-rules.md §3), while the stream is down. */
export const COMMENT_POLL_MS = 2000

/**
 * Whether a failed read means the task is gone for this person: deleted, or no longer shared
 * with them. The server says NOT_FOUND for both, so as not to tell which; asking again cannot
 * bring it back, unlike a network failure or a 5xx.
 */
export function isTaskGone(error: unknown) {
  return error instanceof ORPCError && error.code === 'NOT_FOUND'
}

type ReadComments = (taskId: string, signal: AbortSignal) => Promise<CommentView[]>

const readOverRpc: ReadComments = (taskId, signal) => fetchRpc('comments/getComments', { taskId }, { signal })

/**
 * One poll of a task's discussion: hands the comments to `onComments`, or, once the task is
 * gone, calls `onGone` and ends the polling. Any other failure is thrown, for the poller to retry.
 */
export async function pollComments(
  taskId: string,
  signal: AbortSignal,
  { onComments, onGone }: { onComments: (comments: CommentView[]) => void; onGone: () => void },
  read: ReadComments = readOverRpc,
): Promise<typeof STOP_POLLING | undefined> {
  try {
    onComments(await read(taskId, signal))
    return undefined
  } catch (error) {
    if (!isTaskGone(error)) throw error
    onGone()
    return STOP_POLLING
  }
}

/** What the comment stream sends; `gone` is its 'Task not found' (no longer shared with this person). */
const COMMENT_EVENT_TYPES = [
  'comment-added',
  'comment-updated',
  'comment-deleted',
  'reaction-changed',
  'task-deleted',
  'gone',
  'reset',
] as const

const isEndOfTask = (type: string) => type === 'task-deleted' || type === 'gone'

/**
 * The discussion, kept fresh by the task's comment stream while the modal is open: each event
 * reads the comments again (one read at a time, however many events arrive), and the person's
 * draft, focus and scroll stay as they are. While the stream is down, polling takes over. A read's
 * answer counts only while the loader's data it started from is still current: after a change
 * revalidates the page, the loader's list is newer than any read already on its way. Once the
 * task is gone (deleted, or no longer shared with this person) everything stops, and `onGone`
 * tells the modal.
 */
export function useLiveComments<Discussion extends { comments: CommentView[] }>(
  taskId: string,
  discussion: Discussion,
  onGone: () => void,
) {
  const [polled, setPolled] = useState<{ comments: CommentView[]; from: Discussion } | null>(null)
  const [isGone, setIsGone] = useState(false)
  const [status, setStatus] = useState<StreamStatus>('connecting')
  const latest = useRef({ discussion, onGone })
  useEffect(() => {
    latest.current = { discussion, onGone }
  })
  const read = useRef((signal: AbortSignal) => {
    const from = latest.current.discussion
    return pollComments(taskId, signal, {
      onComments: (comments) => setPolled({ comments, from }),
      onGone: () => {
        setIsGone(true)
        latest.current.onGone()
      },
    })
  })
  const after = useRef(useEventCursor())

  useEffect(() => {
    // Found gone by a poll while the stream was down: no stream is opened again.
    if (isGone) return
    const controller = new AbortController()
    let reading: Promise<unknown> | null = null
    let isAskedAgain = false
    function readAgain() {
      if (reading) {
        isAskedAgain = true
        return
      }
      reading = read
        .current(controller.signal)
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.error('Reading comments failed', error)
        })
        .finally(() => {
          reading = null
          if (isAskedAgain && !controller.signal.aborted) {
            isAskedAgain = false
            readAgain()
          }
        })
    }
    const stream = openLiveStream(`/api/events/comments?${new URLSearchParams({ taskId })}`, {
      types: COMMENT_EVENT_TYPES,
      after: after.current,
      onEvent: ({ type }) => {
        if (!isEndOfTask(type)) return readAgain()
        stream.close()
        setIsGone(true)
        latest.current.onGone()
      },
      onStatus: setStatus,
    })
    return () => {
      controller.abort()
      stream.close()
    }
  }, [taskId, isGone])

  usePolling((signal) => read.current(signal), COMMENT_POLL_MS, { enabled: status !== 'live' && !isGone })
  return {
    comments: polled?.from === discussion ? polled.comments : discussion.comments,
    isGone,
    isPaused: status === 'paused' && !isGone,
  }
}
