import { data, Link } from 'react-router'
import { getUser, requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { ChatMessages } from '~/components/chat/messages'
import { RouteErrorScreen } from '~/components/error-screens'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { ChatShareEmailsSchema, ChatVisibilitySchema } from '~/services/chat-schemas'
import { CHAT_NOT_FOUND, getChat, setChatSharing } from '~/services/chats.server'
import { isDomainError } from '~/services/errors'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import type { Route } from './+types/chat'

/**
 * /saved-chats/:chatId: one saved chat, read-only. Its owner always reads it and decides who else
 * may: anyone with the link (public), or the verified addresses it is shared with. Everyone else
 * gets 404, signed in or not. Never indexed: a public chat is shared by link, not published.
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.chat.title ?? 'Saved chat'} | Threadwork` },
  { name: 'robots', content: 'noindex, nofollow' },
]

export function headers() {
  return { 'X-Robots-Tag': 'noindex', 'Cache-Control': 'private, no-store' }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await getUser(request, context)
  try {
    const { chat, isOwner, messages } = await getChat(database(), user, params.chatId)
    return { chat, isOwner, messages }
  } catch (error) {
    if (isDomainError(error)) throw data(CHAT_NOT_FOUND, { status: 404 })
    throw error
  }
}

const SharingSchema = z.object({
  intent: z.literal('share'),
  visibility: ChatVisibilitySchema,
  emails: ChatShareEmailsSchema,
})

export async function action({ request, context, params, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  return handleForm(
    await readFormData(request),
    SharingSchema,
    async (input) => {
      await setChatSharing(database(), user, params.chatId, {
        visibility: input.visibility,
        emails: input.emails,
      })
      return redirectWithToast(`/saved-chats/${params.chatId}`, { type: 'success', title: 'Sharing updated' })
    },
    { refusal: (error) => ({ error }) },
  )
}

const VISIBILITY_CHOICES = [
  ['private', 'Private: only you, and the addresses below'],
  ['public', 'Public: anyone with the link can read it'],
] as const

export default function SavedChat({
  loaderData: { chat, isOwner, messages },
  actionData: answered,
}: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  const isSaving = useIsPending({ intent: 'share' })
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{chat.title}</h1>
        <Badge>{chat.visibility === 'public' ? 'Public' : 'Private'}</Badge>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">A chat of {chat.ownerName} with the assistant.</p>
      {isOwner ? (
        <section aria-labelledby="sharing" className="mt-6 rounded-lg border bg-card p-4">
          <h2 id="sharing" className="font-medium">
            Who can read this chat
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Readers see all of it, including the tasks the assistant listed.
          </p>
          {actionData?.error ? (
            <Alert tone="error" className="mt-3">
              {actionData.error}
            </Alert>
          ) : null}
          <ActionForm intent="share" className="mt-3 flex flex-col gap-3">
            <fieldset className="flex flex-col gap-1 text-sm">
              <legend className="sr-only">Visibility</legend>
              {VISIBILITY_CHOICES.map(([visibility, label]) => (
                <label key={visibility} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="visibility"
                    value={visibility}
                    defaultChecked={chat.visibility === visibility}
                  />
                  {label}
                </label>
              ))}
            </fieldset>
            <div className="flex flex-col gap-1">
              <Label htmlFor="share-emails">
                Share with (verified e-mail addresses, comma or line separated)
              </Label>
              <Textarea id="share-emails" name="emails" rows={2} defaultValue={chat.sharedWith.join('\n')} />
            </div>
            <div className="flex gap-2">
              <StatusButton isPending={isSaving} pendingText="Saving…">
                Save sharing
              </StatusButton>
              <Link to={`/chat/${chat.id}`} className={buttonClasses('outline')}>
                Continue this chat
              </Link>
            </div>
          </ActionForm>
        </section>
      ) : null}
      <div className="mt-8">
        {messages.length === 0 ? (
          <p className="text-muted-foreground">This chat has no messages yet.</p>
        ) : (
          <ChatMessages messages={messages} />
        )}
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
