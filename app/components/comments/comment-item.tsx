import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Avatar } from '~/components/avatar'
import { RelativeTime } from '~/components/relative-time'
import type { CommentView } from '~/services/comment-views.server'
import type { SessionUser } from '~/services/session-user'
import { cn } from '~/utils/cn'
import type { Mentionable } from '~/utils/mentions'
import { DeleteConfirmation, EditForm } from './comment-forms'
import { MentionText } from './mention-text'
import { Reactions } from './reactions'
import { useViewHref, type View } from './use-comment-view'

/** Who is reading the discussion; null for a visitor who is not signed in. */
export type Viewer = Pick<SessionUser, 'id' | 'name'> | null

/** What every comment of a discussion is shown with: its reader, their rights, the open view. */
export type CommentContext = {
  viewer: Viewer
  /** Whether the reader may comment, reply and react (signed in, and the task still there). */
  canAct: boolean
  /** Names to highlight in the text. */
  people: Mentionable[]
  /** Whom a reply or an edit may mention. */
  mentionable: Mentionable[]
  view: View
  onView: (view: View) => void
}

/** One comment: its author, text and history, reactions, and the links to reply, edit or delete. */
export function CommentItem({
  comment,
  viewer,
  canAct,
  people,
  mentionable,
  view,
  onView,
}: { comment: CommentView } & CommentContext) {
  const isOwn = viewer?.id === comment.userId
  const isEditing = isOwn && view?.kind === 'edit-comment' && view.commentId === comment.id
  const isConfirmingDelete = isOwn && view?.kind === 'delete-comment' && view.commentId === comment.id
  const isReplying = view?.kind === 'reply' && view.commentId === comment.id

  if (comment.isDeleted) {
    return (
      <article className="flex gap-3 text-sm" aria-label="Deleted comment">
        <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-full border border-dashed text-xs text-muted-foreground">
          ·
        </span>
        <p className="self-center italic text-muted-foreground">This comment was deleted.</p>
      </article>
    )
  }

  return (
    <article
      className="flex gap-3 text-sm"
      aria-label={`Comment by ${comment.userName}`}
      id={`comment-${comment.id}`}
    >
      <Avatar name={comment.userName} image={comment.userImage} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <header className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span className="font-medium">{comment.userName}</span>
          {isOwn ? (
            <span className="rounded-full bg-primary/10 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-primary">
              You
            </span>
          ) : null}
          <RelativeTime iso={comment.createdAt} />
          {comment.editedAt ? <EditedNote comment={comment} /> : null}
        </header>

        {isEditing ? (
          <EditForm comment={comment} mentionable={mentionable} onClose={() => onView(null)} />
        ) : (
          <p className="whitespace-pre-wrap break-words">
            <MentionText content={comment.content} users={people} />
          </p>
        )}

        {isConfirmingDelete ? (
          <DeleteConfirmation comment={comment} onClose={() => onView(null)} />
        ) : isEditing ? null : (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <Reactions comment={comment} viewerId={viewer?.id ?? null} canReact={canAct} />
            {canAct ? (
              <ViewLink
                to={isReplying ? null : { kind: 'reply', commentId: comment.id }}
                label={`Reply to ${comment.userName}`}
                isExpanded={isReplying}
                onView={onView}
              >
                Reply
              </ViewLink>
            ) : null}
            {isOwn && canAct ? (
              <>
                <ViewLink
                  to={{ kind: 'edit-comment', commentId: comment.id }}
                  label="Edit comment"
                  onView={onView}
                >
                  Edit
                </ViewLink>
                <ViewLink
                  to={{ kind: 'delete-comment', commentId: comment.id }}
                  label="Delete comment"
                  isDestructive
                  onView={onView}
                >
                  Delete
                </ViewLink>
              </>
            ) : null}
          </div>
        )}
      </div>
    </article>
  )
}

/** A link to a comment view that works without JavaScript and toggles in place with it. */
function ViewLink({
  to,
  label,
  isDestructive = false,
  isExpanded,
  onView,
  children,
}: {
  to: View
  label: string
  /** A view that deletes: red on hover. */
  isDestructive?: boolean
  isExpanded?: boolean
  onView: (view: View) => void
  children: ReactNode
}) {
  const viewHref = useViewHref()
  return (
    <Link
      to={viewHref(to)}
      preventScrollReset
      replace
      aria-label={label}
      aria-expanded={isExpanded}
      className={cn(
        'text-xs font-medium text-muted-foreground hover:underline',
        isDestructive ? 'hover:text-destructive' : 'hover:text-foreground',
      )}
      onClick={(event) => {
        event.preventDefault()
        onView(to)
      }}
    >
      {children}
    </Link>
  )
}

/** 'edited', opening the earlier versions. */
function EditedNote({ comment }: { comment: CommentView }) {
  return (
    <details className="group text-xs text-muted-foreground">
      <summary className="cursor-pointer list-none hover:underline">(edited)</summary>
      {comment.revisions.length > 0 ? (
        <ol
          className="mt-1 flex flex-col gap-1 rounded-md border bg-muted/50 p-2"
          aria-label="Earlier versions"
        >
          {comment.revisions.map((revision) => (
            <li key={revision.createdAt} className="flex flex-col">
              <RelativeTime iso={revision.createdAt} />
              <span className="whitespace-pre-wrap break-words text-foreground">{revision.content}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </details>
  )
}
