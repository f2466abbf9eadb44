import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useFetcher, useNavigate } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { ChatMessages, type ToolPart } from '~/components/chat/messages'
import { useCsrfToken } from '~/components/csrf-input'
import { toast } from '~/components/toaster'
import { Alert } from '~/components/ui/alert'
import { Button, StatusButton } from '~/components/ui/button'
import { Textarea } from '~/components/ui/textarea'
import { useIsPending } from '~/utils/pending'

/**
 * One conversation, live. `useChat` sends only the new message (the server keeps the history),
 * resumes an answer still being written, and sends approvals back on its own once every pending
 * tool has one. Every control is also a form the page's action answers, so the chat works before
 * (and without) JavaScript.
 */

type ConversationProps = {
  chatId: string
  title: string | null
  initialMessages: UIMessage[]
  isRunning: boolean
  isModelReady: boolean
  error: string | null
}

const textOf = (message: UIMessage | undefined) =>
  message?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n') ?? ''

/** The message of a refusal: our endpoints answer `{code, message}`; anything else as it came. */
function messageOf(error: Error) {
  try {
    const body = JSON.parse(error.message) as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {
    // not JSON: a provider's or the network's own words
  }
  return error.message || 'The assistant could not answer. Try again.'
}

function approvalsOf(message: UIMessage) {
  return message.parts.flatMap((part) =>
    'toolCallId' in part && part.state === 'approval-responded' && part.approval
      ? [{ id: part.approval.id, approved: part.approval.approved }]
      : [],
  )
}

export function Conversation({
  chatId,
  title,
  initialMessages,
  isRunning,
  isModelReady,
  error,
}: ConversationProps) {
  const csrfToken = useCsrfToken()
  const stopper = useFetcher()
  const navigate = useNavigate()
  const [draft, setDraft] = useState('')
  const [editingId, setEditingId] = useState<string | null>(null)
  const [isHydrated, setIsHydrated] = useState(false)
  const composer = useRef<HTMLTextAreaElement>(null)
  const isSending = useIsPending({ intent: 'send' })
  // An answer still being written when the page loaded is followed; only then. The loader says
  // `isRunning` again after each navigation (the first answer moves the chat to its own address),
  // and a `true` that arrives before the server heard a Stop must not reopen the stopped stream.
  const [isRunningOnLoad] = useState(isRunning)
  const chat = useChat({
    id: chatId,
    messages: initialMessages,
    resume: isRunningOnLoad,
    experimental_throttle: 50,
    transport: new DefaultChatTransport({
      api: '/api/chat',
      headers: { 'x-csrf-token': csrfToken },
      prepareSendMessagesRequest: ({ id, messages, trigger }) => {
        const last = messages.at(-1)
        if (trigger === 'regenerate-message') return { body: { trigger, chatId: id } }
        if (last?.role === 'assistant')
          return { body: { trigger: 'approve-tools', chatId: id, approvals: approvalsOf(last) } }
        return { body: { trigger: 'submit-message', chatId: id, text: textOf(last), messageId: last?.id } }
      },
      prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/chat/${encodeURIComponent(id)}/stream` }),
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onError: (failure) => toast.error(messageOf(failure)),
    // The sidebar and title come from the loader: load them again, at the chat's own address
    // (the first message gave it one without a navigation, so a reload finds the chat).
    onFinish: () => navigate(`/chat/${chatId}`, { replace: true, preventScrollReset: true }),
  })
  const isBusy = chat.status === 'submitted' || chat.status === 'streaming'
  const lastMessage = chat.messages.at(-1)
  const lastUser = chat.messages.findLast((message) => message.role === 'user')

  useEffect(() => {
    setIsHydrated(true)
    composer.current?.focus()
  }, [])

  function send() {
    const text = draft.trim()
    if (!text || isBusy) return
    if (chat.messages.length === 0) window.history.replaceState(window.history.state, '', `/chat/${chatId}`)
    void chat.sendMessage(editingId ? { text, messageId: editingId } : { text })
    setDraft('')
    setEditingId(null)
  }

  function stop() {
    void chat.stop()
    // The generation runs on the server (maybe another instance): ask it to stop there too.
    void stopper.submit(
      { intent: 'stop', chatId, csrf: csrfToken },
      { method: 'post', action: `/chat/${chatId}` },
    )
  }

  function editLast() {
    if (!lastUser || isBusy) return
    setEditingId(lastUser.id)
    setDraft(textOf(lastUser))
    composer.current?.focus()
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      send()
    } else if (event.key === 'Escape' && isBusy) {
      stop()
    } else if (event.key === 'ArrowUp' && draft === '') {
      event.preventDefault()
      editLast()
    }
  }

  const approval = (part: ToolPart) =>
    part.approval
      ? (['true', 'false'] as const).map((approved) => (
          <ActionForm
            key={approved}
            intent="approve"
            onSubmit={(event) => {
              event.preventDefault()
              if (part.approval)
                void chat.addToolApprovalResponse({ id: part.approval.id, approved: approved === 'true' })
            }}
          >
            <input type="hidden" name="chatId" value={chatId} />
            <input type="hidden" name="approvalId" value={part.approval?.id} />
            <input type="hidden" name="approved" value={approved} />
            <Button type="submit" size="sm" variant={approved === 'true' ? 'default' : 'outline'}>
              {approved === 'true' ? 'Approve' : 'Deny'}
            </Button>
          </ActionForm>
        ))
      : null

  return (
    <section className="flex min-w-0 flex-1 flex-col gap-4" aria-labelledby="chat-title">
      <h1 id="chat-title" className="text-xl font-semibold">
        {title ?? 'AI Chat'}
      </h1>
      {isModelReady ? null : (
        <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
          Built-in assistant: no AI model is connected. It answers from your tasks and the docs; set{' '}
          <code>AI_BASE_URL</code> to chat with a model.
        </p>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {chat.messages.length === 0 ? (
        <p className="text-muted-foreground">
          Ask about your tasks or the docs: “What is in progress?”, “Summarise my week”, “What do the docs say
          about sharing?”
        </p>
      ) : (
        <ChatMessages messages={chat.messages} approval={approval} />
      )}
      {chat.status === 'submitted' ? (
        <p className="text-sm text-muted-foreground" role="status">
          Thinking…
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {isBusy ? (
          <Button type="button" variant="outline" size="sm" onClick={stop}>
            Stop
          </Button>
        ) : lastMessage?.role === 'assistant' ? (
          <ActionForm
            intent="regenerate"
            onSubmit={(event) => {
              event.preventDefault()
              void chat.regenerate()
            }}
          >
            <input type="hidden" name="chatId" value={chatId} />
            <Button type="submit" variant="outline" size="sm">
              Regenerate
            </Button>
          </ActionForm>
        ) : null}
        {isHydrated && lastUser && !isBusy ? (
          <Button type="button" variant="ghost" size="sm" onClick={editLast}>
            Edit last message
          </Button>
        ) : null}
      </div>
      <ActionForm
        intent="send"
        className="sticky bottom-0 flex flex-col gap-2 border-t bg-background py-3"
        onSubmit={(event) => {
          event.preventDefault()
          send()
        }}
      >
        <input type="hidden" name="chatId" value={chatId} />
        {editingId ? <input type="hidden" name="messageId" value={editingId} /> : null}
        <label htmlFor="chat-message" className="sr-only">
          Message
        </label>
        <Textarea
          id="chat-message"
          ref={composer}
          name="text"
          rows={3}
          required
          maxLength={4000}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Ask about your tasks or the docs…"
        />
        <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
          <span>
            {editingId
              ? 'Editing your last message: what followed it will be replaced.'
              : 'Enter to send, Shift+Enter for a new line, ↑ to edit your last message.'}
          </span>
          <StatusButton type="submit" isPending={isSending || isBusy} disabled={isBusy}>
            {editingId ? 'Save and send' : 'Send'}
          </StatusButton>
        </div>
      </ActionForm>
    </section>
  )
}
