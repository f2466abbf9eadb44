import { Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { ActionButton } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { type Database, database } from '~/db/client.server'
import type { AdminActor } from '~/services/admin/audit.server'
import { discardEmail, discardJob, getQueues, retryEmail, retryJob } from '~/services/admin/queues.server'
import type { ToastInput } from '~/toast.server'
import { z } from '~/utils/zod'
import { adminAction } from './+parts/admin-actions.server'
import { AdminPage, When } from './+parts/admin-page'
import type { Route } from './+types/queues'

/**
 * /admin/queues: the jobs queue and the e-mail outbox: how much waits, and the items that gave up,
 * with their error, to retry or discard. No payload, subject or body is shown.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Jobs and e-mail | Admin | Threadwork' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  return getQueues(database())
}

const ItemId = z.string().min(1).max(200)
const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('retry-job'), id: ItemId }),
  z.object({ intent: z.literal('discard-job'), id: ItemId }),
  z.object({ intent: z.literal('retry-email'), id: ItemId }),
  z.object({ intent: z.literal('discard-email'), id: ItemId }),
])

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  const db = database()
  /** A form on one listed item: the change to it, and the toast it leaves. */
  const onItem =
    (change: (db: Database, actor: AdminActor, id: string) => Promise<unknown>, title: string) =>
    async ({ id }: { id: string }): Promise<ToastInput> => {
      await change(db, admin, id)
      return { type: 'success', title }
    }
  return adminAction(request, Intent, '/admin/queues', {
    'retry-job': onItem(retryJob, 'Job queued again'),
    'discard-job': onItem(discardJob, 'Job discarded'),
    'retry-email': onItem(retryEmail, 'E-mail queued again'),
    'discard-email': onItem(discardEmail, 'E-mail discarded'),
  })
}

export default function AdminQueues({ loaderData, actionData }: Route.ComponentProps) {
  const { jobsWaiting, emailsWaiting, failedJobs, failedEmails, pausedEndpoints } = loaderData
  return (
    <AdminPage
      title="Jobs and e-mail"
      description="What waits to run or to be sent, and what gave up after its last attempt."
      refusal={actionData?.refusal}
    >
      <dl className="grid gap-4 sm:grid-cols-2">
        <Waiting label="Jobs waiting" count={jobsWaiting.count} oldest={jobsWaiting.oldest} />
        <Waiting label="E-mails waiting" count={emailsWaiting.count} oldest={emailsWaiting.oldest} />
      </dl>
      <FailedList
        title="Failed jobs"
        empty="No job has failed."
        items={failedJobs.map((job) => ({
          id: job.id,
          label: job.type,
          attempts: job.attempts,
          error: job.lastError,
          at: job.updatedAt,
        }))}
        kind="job"
      />
      <FailedList
        title="Failed e-mails"
        empty="No e-mail has failed."
        items={failedEmails.map((email) => ({
          id: email.id,
          label: `to ${email.to}`,
          attempts: email.attempts,
          error: email.lastError,
          at: email.createdAt,
        }))}
        kind="email"
      />
      <PausedEndpoints endpoints={pausedEndpoints} />
    </AdminPage>
  )
}

function Waiting({ label, count, oldest }: { label: string; count: number; oldest: Date | null }) {
  return (
    <div className="rounded-lg border p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">{count}</dd>
      {oldest ? (
        <dd className="text-sm text-muted-foreground">
          oldest <When at={oldest} />
        </dd>
      ) : null}
    </div>
  )
}

type FailedItem = { id: string; label: string; attempts: number; error: string | null; at: Date }

function FailedList({
  title,
  empty,
  items,
  kind,
}: {
  title: string
  empty: string
  items: FailedItem[]
  kind: 'job' | 'email'
}) {
  const id = `admin-failed-${kind}s`
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="mt-3 divide-y rounded-md border">
          {items.map((item) => (
            <li key={item.id} className="grid gap-2 p-3 text-sm" data-testid={`failed-${kind}`}>
              <div className="flex flex-wrap justify-between gap-2">
                <p className="font-medium">{item.label}</p>
                <span className="text-muted-foreground">
                  {item.attempts} attempts · <When at={item.at} />
                </span>
              </div>
              <p className="break-all font-mono text-xs text-destructive">
                {item.error ?? 'No error recorded.'}
              </p>
              <div className="flex flex-wrap gap-2">
                <ActionButton
                  intent={`retry-${kind}`}
                  fields={{ id: item.id }}
                  label="Retry"
                  pendingText="Retrying…"
                />
                <ActionButton
                  intent={`discard-${kind}`}
                  fields={{ id: item.id }}
                  label="Discard"
                  pendingText="Discarding…"
                  variant="destructive"
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

type PausedEndpoint = Route.ComponentProps['loaderData']['pausedEndpoints'][number]

/** Webhook endpoints that stopped receiving: whose, where, and why (their owner resumes them). */
function PausedEndpoints({ endpoints }: { endpoints: PausedEndpoint[] }) {
  return (
    <section aria-labelledby="admin-paused-endpoints">
      <h2 id="admin-paused-endpoints" className="text-lg font-semibold">
        Paused webhook endpoints
      </h2>
      {endpoints.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No webhook endpoint is paused.</p>
      ) : (
        <ul className="mt-3 divide-y rounded-md border">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="grid gap-1 p-3 text-sm" data-testid="paused-endpoint">
              <p className="break-all font-mono text-xs">{endpoint.url}</p>
              <p className="text-muted-foreground">
                <Link to={`/admin/people/${endpoint.ownerId}`} className="underline underline-offset-4">
                  {endpoint.ownerEmail}
                </Link>{' '}
                · {endpoint.reason ?? 'Paused by its owner'} · added <When at={endpoint.createdAt} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
