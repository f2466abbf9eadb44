import { type ComponentProps, useEffect, useId, useRef, useState } from 'react'
import { StatusButton } from '~/components/ui/button'
import { cn } from '~/utils/cn'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { useHydrated } from '~/utils/use-hydrated'
import { useStableCallback } from '~/utils/use-stable-callback'
import { CancelLink, CommentForm, useCommentFetcher } from './comment-action'
import { MentionTextarea } from './mention-textarea'
import { useViewHref } from './use-comment-view'

/** Writing a comment: the text box's state, its mentions, its shortcut, and the reply/edit box. */

export function useIsMac() {
  const [isMac, setIsMac] = useState(true)
  useEffect(() => setIsMac(/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)), [])
  return isMac
}

/** Cmd+Enter (Ctrl+Enter elsewhere) sends, as long as there is something to send. */
function submitOnShortcut(form: HTMLFormElement | null, canSend: boolean) {
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

type Composer = ReturnType<typeof useComposer>

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

/** The comment's text box, labelled for screen readers, with the @ picker and the send shortcut. */
export function CommentField({
  label,
  composer: { content, setContent, form },
  canSend,
  mentionable,
  ...props
}: {
  label: string
  composer: Composer
  canSend: boolean
  mentionable: Mentionable[]
} & Pick<
  ComponentProps<typeof MentionTextarea>,
  'rows' | 'autoFocus' | 'placeholder' | 'disabled' | 'aria-describedby'
>) {
  const fieldId = useId()
  return (
    <>
      <label htmlFor={fieldId} className="sr-only">
        {label}
      </label>
      <MentionTextarea
        id={fieldId}
        name="content"
        required
        users={mentionable}
        value={content}
        onValueChange={setContent}
        onSubmitShortcut={() => submitOnShortcut(form.current, canSend)}
        {...props}
      />
    </>
  )
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
  const composer = useComposer(initialContent, onClose)
  const { content, form, fetcher, isPending, canSubmit } = composer
  const viewHref = useViewHref()
  return (
    <CommentForm
      fetcher={fetcher}
      ref={form}
      intent={intent}
      fields={fields}
      className={cn('flex flex-col gap-2', className)}
    >
      {intent === 'add' ? <MentionHiddenInputs content={content} mentionable={mentionable} /> : null}
      <CommentField
        label={label}
        composer={composer}
        canSend={canSubmit}
        mentionable={mentionable}
        rows={2}
        autoFocus
        placeholder={placeholder}
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
