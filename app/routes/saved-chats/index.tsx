import { Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { RelativeTime } from '~/components/relative-time'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { ChatIdSchema, ChatTitleSchema } from '~/services/chat-schemas'
import { type ChatSummary, deleteChat, listSavedChats, renameChat } from '~/services/chats.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import type { Route } from './+types/index'

/** /saved-chats: every chat of the person, latest first, to open, rename, share or delete. */

export const meta: Route.MetaFunction = () => [{ title: 'Saved chats | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  return { chats: await listSavedChats(database(), user) }
}

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename'), chatId: ChatIdSchema, title: ChatTitleSchema }),
  z.object({ intent: z.literal('delete'), chatId: ChatIdSchema }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  return handleForm(
    await readFormData(request),
    Intent,
    {
      rename: async ({ chatId, title }) => {
        await renameChat(db, user, chatId, title)
        return redirectWithToast('/saved-chats', { type: 'success', title: 'Chat renamed' })
      },
      delete: async ({ chatId }) => {
        await deleteChat(db, user, chatId)
        return redirectWithToast('/saved-chats', { type: 'success', title: 'Chat deleted' })
      },
    },
    { refusal: (error) => ({ error }) },
  )
}

export default function SavedChats({ loaderData: { chats }, actionData: answered }: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Saved chats</h1>
        <Link to="/chat" className={buttonClasses()}>
          New chat
        </Link>
      </div>
      {actionData?.error ? (
        <Alert tone="error" className="mt-4">
          {actionData.error}
        </Alert>
      ) : null}
      {chats.length === 0 ? (
        <p className="mt-8 text-muted-foreground">
          No saved chats yet. Every conversation in{' '}
          <Link to="/chat" className="text-primary underline underline-offset-4">
            AI Chat
          </Link>{' '}
          is saved here as it happens.
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-3">
          {chats.map((chat) => (
            <SavedChatRow key={chat.id} chat={chat} />
          ))}
        </ul>
      )}
    </main>
  )
}

function SavedChatRow({ chat }: { chat: ChatSummary }) {
  const isRenaming = useIsPending({ intent: 'rename', fields: { chatId: chat.id } })
  const isDeleting = useIsPending({ intent: 'delete', fields: { chatId: chat.id } })
  return (
    <li className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/chat/${chat.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
          {chat.title}
        </Link>
        <Badge>{chat.visibility === 'public' ? 'Public' : 'Private'}</Badge>
        <span className="text-xs text-muted-foreground">
          <RelativeTime iso={chat.updatedAt} />
        </span>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <ActionForm intent="rename" className="flex items-end gap-2">
          <input type="hidden" name="chatId" value={chat.id} />
          <label className="sr-only" htmlFor={`title-${chat.id}`}>
            Title of {chat.title}
          </label>
          <div className="w-56">
            <Input id={`title-${chat.id}`} name="title" defaultValue={chat.title} maxLength={100} required />
          </div>
          <StatusButton isPending={isRenaming} variant="outline" size="sm">
            Rename
          </StatusButton>
        </ActionForm>
        <Link to={`/saved-chats/${chat.id}`} className={buttonClasses('outline', 'sm')}>
          Share
        </Link>
        <ActionForm
          intent="delete"
          onSubmit={(event) => {
            if (!window.confirm(`Delete “${chat.title}”? This cannot be undone.`)) event.preventDefault()
          }}
        >
          <input type="hidden" name="chatId" value={chat.id} />
          <StatusButton isPending={isDeleting} variant="ghost" size="sm" aria-label={`Delete ${chat.title}`}>
            Delete
          </StatusButton>
        </ActionForm>
      </div>
    </li>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
