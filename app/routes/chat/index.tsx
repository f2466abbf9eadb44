import { data, Link, redirect, type ShouldRevalidateFunction } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { startAnswer } from '~/services/assistant/generate.server'
import { chatModel, isModelConnected } from '~/services/assistant/model.server'
import { ChatIdSchema, ChatMessageTextSchema, type ChatRequest } from '~/services/chat-schemas'
import { requestStop, runningStream, waitForStream } from '~/services/chat-streams.server'
import { type ChatSummary, getOwnChat, listSavedChats } from '~/services/chats.server'
import { cn } from '~/utils/cn'
import { readFormData } from '~/utils/form-data.server'
import { timeZoneFrom } from '~/utils/time-zone.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import { Conversation } from './+parts/conversation'
import type { Route } from './+types/index'

/**
 * /chat and /chat/:chatId: the assistant. The page holds the person's saved chats (the sidebar)
 * and, for an open chat, its messages and whether an answer is still being written (the page then
 * resumes it). With JavaScript, `useChat` streams answers from /api/chat; without, the composer is
 * a form this action answers once the whole answer is written.
 */

export const meta: Route.MetaFunction = () => [{ title: 'AI Chat | Threadwork' }]

export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const chats = await listSavedChats(db, user)
  const isModelReady = isModelConnected()
  if (!params.chatId) {
    return { chats, chat: null, messages: [], isRunning: false, newChatId: crypto.randomUUID(), isModelReady }
  }
  const { chat, messages } = await getOwnChat(db, user, params.chatId).catch(() => {
    throw data('Chat not found', { status: 404 })
  })
  const isRunning = (await runningStream(db, chat.id)) !== null
  return { chats, chat, messages, isRunning, newChatId: chat.id, isModelReady }
}

const Intent = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('send'),
    chatId: ChatIdSchema,
    text: ChatMessageTextSchema,
    messageId: z.string().max(200).optional(),
  }),
  z.object({ intent: z.literal('regenerate'), chatId: ChatIdSchema }),
  z.object({
    intent: z.literal('approve'),
    chatId: ChatIdSchema,
    approvalId: z.string().min(1).max(200),
    approved: z.enum(['true', 'false']).transform((value) => value === 'true'),
  }),
  z.object({ intent: z.literal('stop'), chatId: ChatIdSchema }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  /** Without JavaScript the page comes back once the whole answer is written. */
  const answer = async (input: ChatRequest) => {
    const streamId = await startAnswer(db, user, input, chatModel(), timeZoneFrom(request.headers))
    await waitForStream(db, streamId)
    return redirect(`/chat/${encodeURIComponent(input.chatId)}`)
  }
  return handleForm(
    await readFormData(request),
    Intent,
    {
      send: async ({ chatId, text, messageId }) =>
        answer({ trigger: 'submit-message', chatId, text, messageId }),
      regenerate: async ({ chatId }) => answer({ trigger: 'regenerate-message', chatId }),
      approve: async ({ chatId, approvalId, approved }) =>
        answer({ trigger: 'approve-tools', chatId, approvals: [{ id: approvalId, approved }] }),
      stop: async ({ chatId }) => {
        await getOwnChat(db, user, chatId)
        await requestStop(db, chatId)
        return Response.json({ ok: true })
      },
    },
    { refusal: (error) => ({ error }) },
  )
}

/**
 * A Stop sent while an answer streams changes nothing the page shows (the stream itself ends), and
 * loading the page again before the new chat has its address would start a new chat.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  return formData?.get('intent') === 'stop' ? false : defaultShouldRevalidate
}

export default function ChatPage({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  const { chats, chat } = loaderData
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 md:flex-row">
      <nav aria-label="Saved chats" className="md:w-64 md:shrink-0">
        {/* On a phone the list folds away above the chat; on wider screens it is a sidebar. */}
        <details className="md:hidden">
          <summary className="cursor-pointer text-sm font-medium">Your chats ({chats.length})</summary>
          <ChatList chats={chats} currentId={chat?.id} />
        </details>
        <div className="hidden md:block">
          <ChatList chats={chats} currentId={chat?.id} />
        </div>
      </nav>
      <Conversation
        key={loaderData.newChatId}
        chatId={loaderData.newChatId}
        title={chat?.title ?? null}
        initialMessages={loaderData.messages}
        isRunning={loaderData.isRunning}
        isModelReady={loaderData.isModelReady}
        error={actionData && 'error' in actionData ? actionData.error : null}
      />
    </main>
  )
}

function ChatList({ chats, currentId }: { chats: ChatSummary[]; currentId: string | undefined }) {
  return (
    <div className="mt-2 flex flex-col gap-2 md:mt-0">
      <Link to="/chat" className={buttonClasses('outline')}>
        New chat
      </Link>
      {chats.length === 0 ? (
        <p className="text-sm text-muted-foreground">Your chats will be listed here.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {chats.map((item) => (
            <li key={item.id}>
              <Link
                to={`/chat/${item.id}`}
                aria-current={item.id === currentId ? 'page' : undefined}
                className={cn(
                  'block truncate rounded-md px-2 py-1.5 text-sm hover:bg-muted',
                  item.id === currentId && 'bg-muted font-medium',
                )}
              >
                {item.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to="/saved-chats" className="text-sm text-primary underline underline-offset-4">
        Manage saved chats
      </Link>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
