import { useId } from 'react'
import { StatusButton } from '~/components/ui/button'
import type { CommentView } from '~/services/comment-views.server'
import type { Mentionable } from '~/utils/mentions'
import { useHydrated } from '~/utils/use-hydrated'
import { CancelLink, CommentForm, useCommentFetcher } from './comment-action'
import { CommentComposer, CommentField, MentionHiddenInputs, useComposer, useIsMac } from './composer'
import { useViewHref } from './use-comment-view'

/** The four forms of a discussion: a new comment, a reply, an edit, and a delete confirmation. */

export function NewCommentForm({
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
  const composer = useComposer('', () => composer.setContent(''))
  const { content, form, fetcher, isPending, canSubmit } = composer
  const canSend = canSubmit && !isDisabled
  const isMac = useIsMac()
  // The shortcut is a script's: without JavaScript the hint would offer what cannot work.
  const isHydrated = useHydrated()
  const hintId = useId()
  return (
    <CommentForm
      fetcher={fetcher}
      ref={form}
      intent="add"
      fields={{ taskId }}
      className="flex flex-col gap-2"
    >
      <MentionHiddenInputs content={content} mentionable={mentionable} />
      <CommentField
        label="New comment"
        composer={composer}
        canSend={canSend}
        mentionable={mentionable}
        rows={3}
        placeholder={placeholder}
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

export function ReplyForm({
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

export function EditForm({
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

export function DeleteConfirmation({ comment, onClose }: { comment: CommentView; onClose: () => void }) {
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
