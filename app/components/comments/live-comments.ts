import { ORPCError } from '@orpc/client'
import { useState } from 'react'
import type { CommentView } from '~/services/comments.server'
import { STOP_POLLING, usePolling } from '~/utils/polling'
import { fetchRpc } from '~/utils/rpc-client'

/**
 * How the comments section stays fresh: today by polling /api/rpc, until event streams replace
 * it. Everything about the transport is in this file; the section only calls `useLiveComments`.
 */

/** The product's comment polling interval (docs/product-rules.md §3), until event streams replace it. */
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

/**
 * The discussion as fresh as polling keeps it. A poll's answer counts only while the loader's
 * data it started from is still current: after a change revalidates the page, the loader's list
 * is newer than any poll that was already on its way. Once the task is gone (deleted, or no
 * longer shared with this person) polling stops, and `onGone` tells the modal.
 */
export function useLiveComments<Discussion extends { comments: CommentView[] }>(
  taskId: string,
  discussion: Discussion,
  onGone: () => void,
) {
  const [polled, setPolled] = useState<{ comments: CommentView[]; from: Discussion } | null>(null)
  const [isGone, setIsGone] = useState(false)
  usePolling(async (signal) => {
    const from = discussion
    return pollComments(taskId, signal, {
      onComments: (comments) => setPolled({ comments, from }),
      onGone: () => {
        setIsGone(true)
        onGone()
      },
    })
  }, COMMENT_POLL_MS)
  return { comments: polled?.from === discussion ? polled.comments : discussion.comments, isGone }
}
