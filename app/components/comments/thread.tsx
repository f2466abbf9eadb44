import type { CommentView } from '~/services/comment-views.server'
import type { Mentionable } from '~/utils/mentions'
import { ReplyForm } from './comment-forms'
import { type CommentContext, CommentItem } from './comment-item'

/** Threading: a top-level comment with its replies below it, and the reply box under the thread. */

export type Thread = { root: CommentView; replies: CommentView[] }

/** The comments as threads, in the order the list has them; a reply goes under its parent. */
export function threadsOf(comments: CommentView[]): Thread[] {
  const replies = new Map<string, CommentView[]>()
  const roots: CommentView[] = []
  for (const comment of comments) {
    if (comment.parentCommentId) {
      const list = replies.get(comment.parentCommentId) ?? []
      list.push(comment)
      replies.set(comment.parentCommentId, list)
    } else roots.push(comment)
  }
  return roots.map((root) => ({ root, replies: replies.get(root.id) ?? [] }))
}

/** Names to highlight: whoever may be mentioned, and whoever took part. */
export function peopleIn(comments: CommentView[], mentionable: Mentionable[]): Mentionable[] {
  const people = new Map<string, Mentionable>()
  for (const user of mentionable) people.set(user.id, user)
  for (const comment of comments) {
    if (!people.has(comment.userId) && comment.userName) {
      people.set(comment.userId, { id: comment.userId, name: comment.userName, email: '', image: null })
    }
  }
  return [...people.values()]
}

function threadOwns({ root, replies }: Thread, commentId: string) {
  return root.id === commentId || replies.some((reply) => reply.id === commentId)
}

export function CommentThread({
  thread,
  taskId,
  context,
}: {
  thread: Thread
  taskId: string
  context: CommentContext
}) {
  const { root, replies } = thread
  const { view, onView, mentionable } = context
  const renderComment = (comment: CommentView) => <CommentItem comment={comment} {...context} />
  return (
    <li className="flex flex-col gap-3">
      {renderComment(root)}
      {replies.length > 0 ? (
        <ol className="ml-5 flex flex-col gap-3 border-l pl-4" aria-label={`Replies to ${root.userName}`}>
          {replies.map((reply) => (
            <li key={reply.id}>{renderComment(reply)}</li>
          ))}
        </ol>
      ) : null}
      {view?.kind === 'reply' && threadOwns(thread, view.commentId) ? (
        <ReplyForm
          taskId={taskId}
          replyTo={[root, ...replies].find((c) => c.id === view.commentId) ?? root}
          mentionable={mentionable}
          onClose={() => onView(null)}
        />
      ) : null}
    </li>
  )
}
