import { useMemo } from 'react'
import { Link, useLocation } from 'react-router'
import { LiveUpdatesPaused } from '~/components/live/live-updates-paused'
import { useReportTaskGone } from '~/components/task-modal'
import type { CommentView } from '~/services/comment-views.server'
import type { Mentionable } from '~/utils/mentions'
import { NewCommentForm } from './comment-forms'
import type { CommentContext, Viewer } from './comment-item'
import { useLiveComments } from './live-comments'
import { CommentThread, peopleIn, threadsOf } from './thread'
import { useCommentView } from './use-comment-view'

/**
 * The comments section of the task modal (its texts: docs/product-rules.md §4). Every change is a
 * form to /task/comments, so the whole discussion works without JavaScript: reply, edit and
 * delete open as views addressed by the URL (`?view=reply&comment=<id>`). With JavaScript the
 * same links toggle in place, fetchers post, and the list stays fresh (`live-comments.ts`).
 */

export type Discussion = { comments: CommentView[]; mentionable: Mentionable[] }

const MENTION_PLACEHOLDER = 'Add a comment... Type @ to mention someone'
const NO_MENTION_PLACEHOLDER = 'Add a comment... (Mentions disabled for public tasks)'
/** A private task nobody else may see yet: there is no one to mention until it is shared. */
const NOBODY_TO_MENTION_PLACEHOLDER = 'Add a comment... (Share this task to mention people)'

/** The new-comment box's placeholder: why the @ picker is empty, when it is. */
export function commentPlaceholder(isPublic: boolean, mentionable: Mentionable[]) {
  if (isPublic) return NO_MENTION_PLACEHOLDER
  return mentionable.length > 0 ? MENTION_PLACEHOLDER : NOBODY_TO_MENTION_PLACEHOLDER
}

export function CommentsSection({
  taskId,
  isPublic,
  discussion,
  viewer,
}: {
  taskId: string
  isPublic: boolean
  discussion: Discussion
  viewer: Viewer
}) {
  const location = useLocation()
  const [shownView, setView] = useCommentView()
  const { comments, isGone, isPaused } = useLiveComments(taskId, discussion, useReportTaskGone())
  // A task that is gone takes no more comments, replies or reactions; what it had stays readable.
  const canAct = viewer !== null && !isGone
  const view = canAct ? shownView : null
  const { mentionable } = discussion
  const people = useMemo(() => peopleIn(comments, mentionable), [comments, mentionable])
  const threads = useMemo(() => threadsOf(comments), [comments])
  const count = comments.filter((comment) => !comment.isDeleted).length
  const context: CommentContext = { viewer, canAct, people, mentionable, view, onView: setView }

  return (
    <section aria-labelledby="comments-title" className="flex flex-col gap-4 border-t pt-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="comments-title" className="text-sm font-semibold">
          Comments ({count})
        </h3>
        <LiveUpdatesPaused isPaused={isPaused} />
      </div>

      {viewer ? (
        <NewCommentForm
          taskId={taskId}
          mentionable={mentionable}
          placeholder={commentPlaceholder(isPublic, mentionable)}
          isDisabled={isGone}
        />
      ) : (
        <p className="text-sm text-muted-foreground">
          <Link
            to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}
            className="text-primary underline underline-offset-4"
          >
            Sign in
          </Link>{' '}
          to join the conversation.
        </p>
      )}

      {threads.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted-foreground">
          No comments yet. Be the first to comment!
        </p>
      ) : (
        <ol className="flex flex-col gap-4" aria-label="Comments">
          {threads.map((thread) => (
            <CommentThread key={thread.root.id} thread={thread} taskId={taskId} context={context} />
          ))}
        </ol>
      )}
    </section>
  )
}
