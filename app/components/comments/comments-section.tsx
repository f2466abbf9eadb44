import { type FormEvent, type ReactNode, type Ref, useEffect, useId, useMemo, useRef, useState } from 'react'
import { type FetcherFormProps, Link, useFetcher, useLocation } from 'react-router'
import { toast } from 'sonner'
import { Avatar } from '~/components/avatar'
import { CsrfInput } from '~/components/csrf-input'
import { RelativeTime } from '~/components/relative-time'
import { useReportTaskGone } from '~/components/task-modal'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import type { ReactionType } from '~/domain/constants'
import type { CommentActionData } from '~/routes/tasks/comments'
import type { CommentView } from '~/services/comments.server'
import type { SessionUser } from '~/services/session-user'
import { cn } from '~/utils/cn'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { useSubmitOnce } from '~/utils/pending'
import { usePolling } from '~/utils/polling'
import { useHydrated } from '~/utils/use-hydrated'
import { COMMENT_POLL_MS, pollComments } from './live-comments'
import { MentionText } from './mention-text'
import { MentionTextarea } from './mention-textarea'

/**
 * The comments section of the task modal (its texts: docs/product-rules.md §4). Every change is a
 * form to /task/comments, so the whole discussion works without JavaScript: reply, edit and
 * delete open as views addressed by the URL (`?view=reply&comment=<id>`). With JavaScript the
 * same links toggle in place, fetchers post, and the list stays fresh by polling.
 */

export type Discussion = { comments: CommentView[]; mentionable: Mentionable[] }

type Viewer = Pick<SessionUser, 'id' | 'name'> | null

const REACTIONS: { type: ReactionType; emoji: string; label: string }[] = [
  { type: 'thumbsup', emoji: '👍', label: 'Thumbs up' },
  { type: 'heart', emoji: '❤️', label: 'Heart' },
  { type: 'check', emoji: '✅', label: 'Check' },
  { type: 'fire', emoji: '🔥', label: 'Fire' },
]

export const MENTION_PLACEHOLDER = 'Add a comment... Type @ to mention someone'
export const NO_MENTION_PLACEHOLDER = 'Add a comment... (Mentions disabled for public tasks)'
/** A private task nobody else may see yet: there is no one to mention until it is shared. */
export const NOBODY_TO_MENTION_PLACEHOLDER = 'Add a comment... (Share this task to mention people)'

/** The new-comment box's placeholder: why the @ picker is empty, when it is. */
export function commentPlaceholder(isPublic: boolean, mentionable: Mentionable[]) {
  if (isPublic) return NO_MENTION_PLACEHOLDER
  return mentionable.length > 0 ? MENTION_PLACEHOLDER : NOBODY_TO_MENTION_PLACEHOLDER
}

type View = { kind: 'reply' | 'edit-comment' | 'delete-comment'; commentId: string } | null

function viewFrom(search: string): View {
  const params = new URLSearchParams(search)
  const kind = params.get('view')
  const commentId = params.get('comment')
  if (!commentId || (kind !== 'reply' && kind !== 'edit-comment' && kind !== 'delete-comment')) return null
  return { kind, commentId }
}

/** The URL of a comment view (or of no view), kept on the page the modal is open on. */
function useViewHref() {
  const location = useLocation()
  return (view: View) => {
    const params = new URLSearchParams(location.search)
    params.delete('view')
    params.delete('comment')
    if (view) {
      params.set('view', view.kind)
      params.set('comment', view.commentId)
    }
    return `${location.pathname}?${params}`
  }
}

/**
 * The discussion as fresh as polling keeps it. A poll's answer counts only while the loader's
 * data it started from is still current: after a change revalidates the page, the loader's list
 * is newer than any poll that was already on its way. Once the task is gone (deleted, or no
 * longer shared with this person) polling stops and the modal says so.
 */
function useLiveComments(taskId: string, discussion: Discussion) {
  const [polled, setPolled] = useState<{ comments: CommentView[]; from: Discussion } | null>(null)
  const [isGone, setIsGone] = useState(false)
  const reportGone = useReportTaskGone()
  usePolling(async (signal) => {
    const from = discussion
    return pollComments(taskId, signal, {
      onComments: (comments) => setPolled({ comments, from }),
      onGone: () => {
        setIsGone(true)
        reportGone()
      },
    })
  }, COMMENT_POLL_MS)
  return { comments: polled?.from === discussion ? polled.comments : discussion.comments, isGone }
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
  const [shownView, setView] = useState<View>(() => viewFrom(location.search))
  const { comments, isGone } = useLiveComments(taskId, discussion)
  // A task that is gone takes no more comments, replies or reactions; what it had stays readable.
  const canAct = viewer !== null && !isGone
  const view = canAct ? shownView : null
  const { mentionable } = discussion

  // Names to highlight: whoever may be mentioned, and whoever took part.
  const knownPeople = useMemo(() => {
    const people = new Map<string, Mentionable>()
    for (const user of mentionable) people.set(user.id, user)
    for (const comment of comments) {
      if (!people.has(comment.userId) && comment.userName) {
        people.set(comment.userId, { id: comment.userId, name: comment.userName, email: '', image: null })
      }
    }
    return [...people.values()]
  }, [comments, mentionable])

  const threads = useMemo(() => {
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
  }, [comments])

  const count = comments.filter((comment) => !comment.isDeleted).length
  const renderComment = (comment: CommentView) => (
    <CommentItem
      comment={comment}
      viewer={viewer}
      canAct={canAct}
      people={knownPeople}
      mentionable={mentionable}
      view={view}
      onView={setView}
    />
  )

  return (
    <section aria-labelledby="comments-title" className="flex flex-col gap-4 border-t pt-4">
      <h3 id="comments-title" className="text-sm font-semibold">
        Comments ({count})
      </h3>

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
          {threads.map(({ root, replies }) => (
            <li key={root.id} className="flex flex-col gap-3">
              {renderComment(root)}
              {replies.length > 0 ? (
                <ol
                  className="ml-5 flex flex-col gap-3 border-l pl-4"
                  aria-label={`Replies to ${root.userName}`}
                >
                  {replies.map((reply) => (
                    <li key={reply.id}>{renderComment(reply)}</li>
                  ))}
                </ol>
              ) : null}
              {view?.kind === 'reply' && threadOwns(root, replies, view.commentId) ? (
                <ReplyForm
                  taskId={taskId}
                  replyTo={[root, ...replies].find((c) => c.id === view.commentId) ?? root}
                  mentionable={mentionable}
                  onClose={() => setView(null)}
                />
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function threadOwns(root: CommentView, replies: CommentView[], commentId: string) {
  return root.id === commentId || replies.some((reply) => reply.id === commentId)
}

// ── One comment ─────────────────────────────────────────────────────────────

function CommentItem({
  comment,
  viewer,
  canAct,
  people,
  mentionable,
  view,
  onView,
}: {
  comment: CommentView
  viewer: Viewer
  canAct: boolean
  people: Mentionable[]
  mentionable: Mentionable[]
  view: View
  onView: (view: View) => void
}) {
  const viewHref = useViewHref()
  const isOwn = viewer?.id === comment.userId
  const isEditing = isOwn && view?.kind === 'edit-comment' && view.commentId === comment.id
  const isConfirmingDelete = isOwn && view?.kind === 'delete-comment' && view.commentId === comment.id
  const isReplying = view?.kind === 'reply' && view.commentId === comment.id

  /** A link that works without JavaScript and toggles in place with it. */
  const viewLink = (
    next: View,
    label: string,
    children: ReactNode,
    { className, isExpanded }: { className?: string; isExpanded?: boolean } = {},
  ) => (
    <Link
      to={viewHref(next)}
      preventScrollReset
      replace
      aria-label={label}
      aria-expanded={isExpanded}
      className={cn(
        'text-xs font-medium text-muted-foreground hover:text-foreground hover:underline',
        className,
      )}
      onClick={(event) => {
        event.preventDefault()
        onView(next)
      }}
    >
      {children}
    </Link>
  )

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
            <Reactions comment={comment} viewer={viewer} canReact={canAct} />
            {canAct
              ? viewLink(
                  isReplying ? null : { kind: 'reply', commentId: comment.id },
                  `Reply to ${comment.userName}`,
                  'Reply',
                  { isExpanded: isReplying },
                )
              : null}
            {isOwn && canAct ? (
              <>
                {viewLink({ kind: 'edit-comment', commentId: comment.id }, 'Edit comment', 'Edit')}
                {viewLink({ kind: 'delete-comment', commentId: comment.id }, 'Delete comment', 'Delete', {
                  className: 'hover:text-destructive',
                })}
              </>
            ) : null}
          </div>
        )}
      </div>
    </article>
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

// ── Forms ───────────────────────────────────────────────────────────────────

/** A fetcher form to /task/comments that returns to this page; failures become the spec's toasts. */
function useCommentFetcher(onSuccess?: () => void) {
  const fetcher = useFetcher<CommentActionData>()
  const wasBusy = useRef(false)
  useEffect(() => {
    if (fetcher.state !== 'idle') {
      wasBusy.current = true
      return
    }
    if (!wasBusy.current) return
    wasBusy.current = false
    if (fetcher.data?.error) toast.error(fetcher.data.error, { description: fetcher.data.detail })
    else onSuccess?.()
  }, [fetcher.state, fetcher.data, onSuccess])
  return fetcher
}

type CommentFetcher = ReturnType<typeof useCommentFetcher>

/**
 * A form to /task/comments: the intent, its fields, the CSRF token, and the page to come back to
 * (without the reply or edit view that was open).
 */
function CommentForm({
  fetcher,
  intent,
  fields,
  children,
  ...props
}: {
  fetcher: CommentFetcher
  intent: string
  fields: Record<string, string>
  children: ReactNode
  ref?: Ref<HTMLFormElement>
} & Omit<FetcherFormProps, 'method' | 'action' | 'children'>) {
  const location = useLocation()
  const submitOnce = useSubmitOnce(fetcher)
  const back = new URLSearchParams(location.search)
  back.delete('view')
  back.delete('comment')
  return (
    <fetcher.Form
      method="post"
      action="/task/comments"
      preventScrollReset
      {...props}
      onSubmit={submitOnce(props.onSubmit)}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}?${back}`} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </fetcher.Form>
  )
}

function useIsMac() {
  const [isMac, setIsMac] = useState(true)
  useEffect(() => setIsMac(/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)), [])
  return isMac
}

/** Cmd+Enter (Ctrl+Enter elsewhere) sends, as long as there is something to send. */
function submitOnShortcut(form: HTMLFormElement | null, canSend: boolean) {
  if (form && canSend) form.requestSubmit()
}

function MentionHiddenInputs({ content, mentionable }: { content: string; mentionable: Mentionable[] }) {
  return (
    <>
      {findMentions(content, mentionable).map((user) => (
        <input key={user.id} type="hidden" name="mentions" value={user.email} />
      ))}
    </>
  )
}

/** A comment box's state: its text, its fetcher, and whether it can be sent now. */
function useComposer(initialContent: string, onDone: () => void) {
  const [content, setContent] = useState(initialContent)
  const form = useRef<HTMLFormElement>(null)
  const fetcher = useCommentFetcher(useStableCallback(onDone))
  const isPending = fetcher.state !== 'idle'
  // Without JavaScript nothing would re-enable the button; the browser checks `required` instead.
  const canSubmit = !useHydrated() || (content.trim().length > 0 && !isPending)
  return { content, setContent, form, fetcher, isPending, canSubmit }
}

function NewCommentForm({
  taskId,
  mentionable,
  placeholder,
  isDisabled,
}: {
  taskId: string
  mentionable: Mentionable[]
  placeholder: string
  isDisabled: boolean
}) {
  const { content, setContent, form, fetcher, isPending, canSubmit } = useComposer('', () => setContent(''))
  const canSend = canSubmit && !isDisabled
  const isMac = useIsMac()
  // The shortcut is a script's: without JavaScript the hint would offer what cannot work.
  const isHydrated = useHydrated()
  const hintId = useId()
  const fieldId = useId()
  return (
    <CommentForm
      fetcher={fetcher}
      ref={form}
      intent="add"
      fields={{ taskId }}
      className="flex flex-col gap-2"
    >
      <MentionHiddenInputs content={content} mentionable={mentionable} />
      <label htmlFor={fieldId} className="sr-only">
        New comment
      </label>
      <MentionTextarea
        id={fieldId}
        name="content"
        rows={3}
        required
        placeholder={placeholder}
        users={mentionable}
        value={content}
        onValueChange={setContent}
        onSubmitShortcut={() => submitOnShortcut(form.current, canSend)}
        disabled={isDisabled}
        aria-describedby={isHydrated ? hintId : undefined}
      />
      <div className="flex items-center justify-between gap-2">
        {isHydrated ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            Press {isMac ? 'Cmd' : 'Ctrl'}+Enter to send
          </p>
        ) : null}
        <StatusButton
          isPending={isPending}
          pendingText="Sending…"
          size="sm"
          className="ml-auto"
          disabled={!canSend}
        >
          Send
        </StatusButton>
      </div>
    </CommentForm>
  )
}

function ReplyForm({
  taskId,
  replyTo,
  mentionable,
  onClose,
}: {
  taskId: string
  replyTo: CommentView
  mentionable: Mentionable[]
  onClose: () => void
}) {
  return (
    <CommentComposer
      intent="add"
      fields={{ taskId, parentCommentId: replyTo.id }}
      label={`Reply to ${replyTo.userName}`}
      placeholder={`Reply to ${replyTo.userName}...`}
      initialContent=""
      mentionable={mentionable}
      submitLabel={['Reply', 'Replying…']}
      onClose={onClose}
      className="ml-5 border-l pl-4"
    />
  )
}

function EditForm({
  comment,
  mentionable,
  onClose,
}: {
  comment: CommentView
  mentionable: Mentionable[]
  onClose: () => void
}) {
  return (
    <CommentComposer
      intent="edit"
      fields={{ commentId: comment.id }}
      label="Edit comment"
      initialContent={comment.content}
      mentionable={mentionable}
      submitLabel={['Save', 'Saving…']}
      onClose={onClose}
    />
  )
}

/** The two-row box of a reply or an edit, with its submit button and Cancel. */
function CommentComposer({
  intent,
  fields,
  label,
  placeholder,
  initialContent,
  mentionable,
  submitLabel: [idleLabel, pendingLabel],
  onClose,
  className,
}: {
  intent: 'add' | 'edit'
  fields: Record<string, string>
  label: string
  placeholder?: string
  initialContent: string
  mentionable: Mentionable[]
  submitLabel: [string, string]
  onClose: () => void
  className?: string
}) {
  const { content, setContent, form, fetcher, isPending, canSubmit } = useComposer(initialContent, onClose)
  const viewHref = useViewHref()
  const fieldId = useId()
  return (
    <CommentForm
      fetcher={fetcher}
      ref={form}
      intent={intent}
      fields={fields}
      className={cn('flex flex-col gap-2', className)}
    >
      {intent === 'add' ? <MentionHiddenInputs content={content} mentionable={mentionable} /> : null}
      <label htmlFor={fieldId} className="sr-only">
        {label}
      </label>
      <MentionTextarea
        id={fieldId}
        name="content"
        rows={2}
        required
        autoFocus
        placeholder={placeholder}
        users={mentionable}
        value={content}
        onValueChange={setContent}
        onSubmitShortcut={() => submitOnShortcut(form.current, canSubmit)}
      />
      <div className="flex gap-2">
        <StatusButton isPending={isPending} pendingText={pendingLabel} size="sm" disabled={!canSubmit}>
          {idleLabel}
        </StatusButton>
        <CancelLink href={viewHref(null)} onCancel={onClose} />
      </div>
    </CommentForm>
  )
}

function DeleteConfirmation({ comment, onClose }: { comment: CommentView; onClose: () => void }) {
  const fetcher = useCommentFetcher(onClose)
  const viewHref = useViewHref()
  const isPending = fetcher.state !== 'idle'
  const questionId = useId()
  return (
    // The role on a box of its own: a <form> may not be an alertdialog.
    <div role="alertdialog" aria-label="Delete comment" aria-describedby={questionId}>
      <CommentForm
        fetcher={fetcher}
        intent="delete"
        fields={{ commentId: comment.id }}
        className="flex flex-wrap items-center gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-2"
      >
        <p id={questionId} className="text-sm">
          Are you sure you want to delete this comment?
        </p>
        <div className="flex gap-2">
          <StatusButton
            isPending={isPending}
            pendingText="Deleting…"
            size="sm"
            variant="destructive"
            autoFocus
          >
            Delete
          </StatusButton>
          <CancelLink href={viewHref(null)} onCancel={onClose} />
        </div>
      </CommentForm>
    </div>
  )
}

function CancelLink({ href, onCancel }: { href: string; onCancel: () => void }) {
  return (
    <Link
      to={href}
      preventScrollReset
      replace
      className={buttonClasses('outline', 'sm')}
      onClick={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      Cancel
    </Link>
  )
}

// ── Reactions ───────────────────────────────────────────────────────────────

function Reactions({
  comment,
  viewer,
  canReact,
}: {
  comment: CommentView
  viewer: Viewer
  canReact: boolean
}) {
  const reactions = JSON.parse(comment.reactions) as { type: ReactionType; userId: string }[]
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Reactions">
      {REACTIONS.map((reaction) => {
        const given = reactions.filter((r) => r.type === reaction.type)
        return (
          <li key={reaction.type}>
            <ReactionButton
              comment={comment}
              reaction={reaction}
              count={given.length}
              isMine={viewer !== null && given.some((r) => r.userId === viewer.id)}
              canReact={canReact}
            />
          </li>
        )
      })}
    </ul>
  )
}

function ReactionButton({
  comment,
  reaction,
  count,
  isMine,
  canReact,
}: {
  comment: CommentView
  reaction: (typeof REACTIONS)[number]
  count: number
  isMine: boolean
  canReact: boolean
}) {
  const fetcher = useCommentFetcher()
  // While the toggle is in flight, show its outcome (an optimistic toggle).
  const isToggling = fetcher.state !== 'idle'
  const shownMine = isToggling ? !isMine : isMine
  const shownCount = isToggling ? count + (isMine ? -1 : 1) : count
  const classes = cn(
    'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-xs tabular-nums transition-colors',
    shownMine ? 'border-primary/60 bg-primary/10 text-primary' : 'hover:bg-muted',
  )
  // Holds the count the button shows, so the name contains its visible text (WCAG 2.5.3).
  const label = `${reaction.label}: ${shownCount}`
  if (!canReact) {
    return (
      <span className={classes} role="img" aria-label={label}>
        <span aria-hidden>{reaction.emoji}</span>
        <span aria-hidden>{shownCount}</span>
      </span>
    )
  }
  return (
    <CommentForm
      fetcher={fetcher}
      intent="react"
      fields={{ commentId: comment.id, reactionType: reaction.type }}
      onSubmit={preventDoubleToggle(isToggling)}
    >
      <button type="submit" className={classes} aria-pressed={shownMine} aria-label={label}>
        <span aria-hidden>{reaction.emoji}</span>
        <span aria-hidden>{shownCount}</span>
      </button>
    </CommentForm>
  )
}

/** A second click while the first toggle is in flight would cancel it; ignore it instead. */
function preventDoubleToggle(isToggling: boolean) {
  return (event: FormEvent) => {
    if (isToggling) event.preventDefault()
  }
}

/** A callback whose identity never changes, that always runs the latest function. */
function useStableCallback(callback: () => void) {
  const latest = useRef(callback)
  latest.current = callback
  return useMemo(() => () => latest.current(), [])
}
