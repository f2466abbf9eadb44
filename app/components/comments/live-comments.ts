import { ORPCError } from '@orpc/client'
import type { CommentView } from '~/services/comments.server'
import { STOP_POLLING } from '~/utils/polling'
import { fetchRpc } from '~/utils/rpc-client'

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

const readOverRpc: ReadComments = (taskId, signal) =>
  fetchRpc<CommentView[]>('comments/getComments', { taskId }, { signal })

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
