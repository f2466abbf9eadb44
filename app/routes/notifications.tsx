import { Link, useFetcher, useFetchers } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { RelativeTime } from '~/components/relative-time'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { type ButtonSize, buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { INBOX_PATH } from '~/inbox'
import { NotificationIdSchema } from '~/services/comment-schemas'
import {
  type InboxMention,
  listInboxMentions,
  markAllMentionsRead,
  markNotificationRead,
  markTaskMentionsRead,
} from '~/services/notifications.server'
import { redirectWithToast } from '~/toast.server'
import { cn } from '~/utils/cn'
import { readFormData } from '~/utils/form-data.server'
import { noticeNoun } from '~/utils/notices'
import { z } from '~/utils/zod'
import type { Route } from './+types/notifications'

/**
 * The inbox: every mention of the signed-in person, newest first, read or not — what tells them
 * they were mentioned when no script runs to toast it. Each mention opens its task's modal here
 * (which reads the task's mentions); "Mark as read" and "Mark all as read" are real forms, sent
 * by a fetcher when JavaScript runs.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Notifications | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  // The root opens this task's modal, which reads its mentions; reading them here too, before
  // listing, keeps the list in step with the modal (the two loaders run side by side).
  const openTaskId = url.searchParams.get('task')
  if (openTaskId) await markTaskMentionsRead(db, user.id, openTaskId)
  const listedAt = new Date()
  return { mentions: await listInboxMentions(db, user), listedAt: listedAt.toISOString() }
}

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('mark-read'), notificationId: NotificationIdSchema }),
  z.object({
    intent: z.literal('mark-all-read'),
    // When the page was listed: mentions that arrived after it stay unread.
    upTo: z.iso.datetime({ error: 'Reload the page and try again.' }).transform((value) => new Date(value)),
  }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  return handleForm(
    await readFormData(request),
    Intent,
    {
      'mark-read': async ({ notificationId }) => {
        await markNotificationRead(db, user, notificationId)
        return redirectWithToast(INBOX_PATH, { type: 'success', title: 'Marked as read' })
      },
      'mark-all-read': async ({ upTo }) => {
        const marked = await markAllMentionsRead(db, user, upTo)
        return redirectWithToast(INBOX_PATH, {
          type: 'success',
          title: marked === 0 ? 'Nothing left to mark' : 'All caught up',
          description:
            marked === 0
              ? undefined
              : `${marked} ${marked === 1 ? 'notification' : 'notifications'} marked as read.`,
        })
      },
    },
    { refusal: (error) => ({ error }) },
  )
}

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { mentions, listedAt } = loaderData
  const pending = usePendingReads()
  const isRead = (mention: InboxMention) => mention.isRead || pending.isAll || pending.ids.has(mention.id)
  const unread = mentions.filter((mention) => !isRead(mention)).length

  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Notifications</h1>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="unread-summary">
            {unread === 0
              ? 'You are all caught up.'
              : `${unread} unread ${noticeNoun(mentions.filter((mention) => !isRead(mention)))}`}
          </p>
        </div>
        {mentions.some((mention) => !mention.isRead) ? <MarkAllReadForm upTo={listedAt} /> : null}
      </div>

      {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}

      {mentions.length === 0 ? (
        <EmptyInbox />
      ) : (
        <ul aria-label="Notifications" className="divide-y rounded-lg border">
          {mentions.map((mention) => (
            <MentionItem key={mention.id} mention={mention} isRead={isRead(mention)} />
          ))}
        </ul>
      )}
    </main>
  )
}

/** Mentions being marked read right now, shown read already (optimistic). */
function usePendingReads() {
  const fetchers = useFetchers()
  const ids = new Set<string>()
  let isAll = false
  for (const fetcher of fetchers) {
    if (fetcher.formAction !== INBOX_PATH || !fetcher.formData) continue
    if (fetcher.formData.get('intent') === 'mark-all-read') isAll = true
    const id = fetcher.formData.get('notificationId')
    if (typeof id === 'string') ids.add(id)
  }
  return { ids, isAll }
}

function MentionItem({ mention, isRead }: { mention: InboxMention; isRead: boolean }) {
  const href = `${INBOX_PATH}?${new URLSearchParams({ task: mention.taskId })}`
  return (
    <li
      data-testid="mention"
      className={cn('flex flex-wrap items-start gap-3 p-4', isRead ? '' : 'bg-accent/60')}
    >
      <span
        aria-hidden
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', isRead ? 'bg-transparent' : 'bg-primary')}
      />
      <div className="min-w-0 flex-1">
        <p className={cn('text-sm break-words', isRead ? 'text-muted-foreground' : 'font-semibold')}>
          <Link to={href} preventScrollReset className="hover:underline">
            {mention.type === 'assignment'
              ? `${mention.fromUserName} assigned you “${mention.taskText}”`
              : `${mention.fromUserName} mentioned you on “${mention.taskText}”`}
          </Link>{' '}
          {isRead ? null : (
            <Badge tone="primary" weight="medium" className="ml-1">
              Unread
            </Badge>
          )}
        </p>
        {mention.type === 'assignment' ? null : (
          <p className="mt-1 text-sm break-words text-foreground">{mention.excerpt}</p>
        )}
        <RelativeTime iso={mention.createdAt} className="mt-1 block" />
      </div>
      {/* Kept while its own request is pending (shown read already): an unmounted fetcher's answer,
          and the toast and reload it brings, would be dropped. */}
      {mention.isRead ? null : <MarkReadForm mention={mention} />}
    </li>
  )
}

function MarkReadForm({ mention }: { mention: InboxMention }) {
  return (
    <InboxForm
      intent="mark-read"
      fields={{ notificationId: mention.id }}
      label="Mark as read"
      pendingLabel="Marking…"
      // Which mention, for screen readers: every line has a button of the same visible text.
      context={`: ${mention.fromUserName} on “${mention.taskText}”`}
      size="sm"
    />
  )
}

function MarkAllReadForm({ upTo }: { upTo: string }) {
  return (
    <InboxForm
      intent="mark-all-read"
      fields={{ upTo }}
      label="Mark all as read"
      pendingLabel="Marking all…"
    />
  )
}

/**
 * A form to the inbox's action: a real post without JavaScript; with it, a fetcher whose button
 * shows it is pending and cannot be sent twice, and whose redirect brings the toast.
 */
function InboxForm({
  intent,
  fields,
  label,
  pendingLabel,
  context,
  size,
}: {
  intent: 'mark-read' | 'mark-all-read'
  fields: Record<string, string>
  label: string
  pendingLabel: string
  context?: string
  size?: ButtonSize
}) {
  const fetcher = useFetcher<typeof action>()
  const which = context ? <span className="sr-only">{context}</span> : null
  return (
    <ActionForm fetcher={fetcher} action={INBOX_PATH} intent={intent} preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <StatusButton
        isPending={fetcher.state !== 'idle'}
        pendingText={
          <>
            {pendingLabel}
            {which}
          </>
        }
        size={size}
        variant="outline"
      >
        {label}
        {which}
      </StatusButton>
      <FetcherError error={fetcher.data?.error} />
    </ActionForm>
  )
}

/** A refusal of a form sent by a fetcher (without JavaScript the page shows it at the top). */
function FetcherError({ error }: { error?: string }) {
  if (!error) return null
  return (
    <p role="alert" className="mt-1 text-sm text-destructive">
      {error}
    </p>
  )
}

function EmptyInbox() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed p-10 text-center">
      <h2 className="text-lg font-semibold">No notifications yet</h2>
      <p className="max-w-md text-sm text-muted-foreground">
        When someone mentions you in a comment on a task you share, or assigns a task to you, it shows up
        here, and in the bell at the top of every page.
      </p>
      <Link to="/task" className={buttonClasses('outline', 'sm')}>
        Go to your tasks
      </Link>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
