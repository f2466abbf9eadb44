import { useEffect, useId, useRef, useState } from 'react'
import { StatusButton } from '~/components/ui/button'
import { cn } from '~/utils/cn'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { useHydrated } from '~/utils/use-hydrated'
import { useStableCallback } from '~/utils/use-stable-callback'
import { CancelLink, CommentForm, useCommentFetcher } from './comment-form'
import { MentionTextarea } from './mention-textarea'
import { useViewHref } from './use-comment-view'

/** Writing a comment: the text box's state, its mentions, its shortcut, and the reply/edit box. */

export function useIsMac() {
  const [isMac, setIsMac] = useState(true)
  useEffect(() => setIsMac(/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)), [])
  return isMac
}

/** Cmd+Enter (Ctrl+Enter elsewhere) sends, as long as there is something to send. */
export function submitOnShortcut(form: HTMLFormElement | null, canSend: boolean) {
  if (form && canSend) form.requestSubmit()
}

export function MentionHiddenInputs({
  content,
  mentionable,
}: {
  content: string
  mentionable: Mentionable[]
}) {
  return (
    <>
      {findMentions(content, mentionable).map((user) => (
        <input key={user.id} type="hidden" name="mentions" value={user.email} />
      ))}
    </>
  )
}

/** A comment box's state: its text, its fetcher, and whether it can be sent now. */
export function useComposer(initialContent: string, onDone: () => void) {
  const [content, setContent] = useState(initialContent)
  const form = useRef<HTMLFormElement>(null)
  const fetcher = useCommentFetcher(useStableCallback(onDone))
  const isPending = fetcher.state !== 'idle'
  // Without JavaScript nothing would re-enable the button; the browser checks `required` instead.
  const canSubmit = !useHydrated() || (content.trim().length > 0 && !isPending)
  return { content, setContent, form, fetcher, isPending, canSubmit }
}

/** The two-row box of a reply or an edit, with its submit button and Cancel. */
export function CommentComposer({
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
