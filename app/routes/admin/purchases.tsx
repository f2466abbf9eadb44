import { Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { ActionButton } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { database } from '~/db/client.server'
import { listPurchases, retryInvitation } from '~/services/admin/purchases.server'
import { z } from '~/utils/zod'
import { adminAction } from './+parts/admin-actions.server'
import { AdminPage, AdminSearch, When } from './+parts/admin-page'
import type { Route } from './+types/purchases'

/**
 * /admin/purchases: purchases with their Stripe ids, refunds and the buyer's repository
 * invitation, with "retry invitation" for one that is not sent.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Purchases | Admin | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const query = url.searchParams.get('q')?.slice(0, 200) ?? ''
  return { query, purchases: await listPurchases(database(), query) }
}

const Intent = z.object({ intent: z.literal('retry-invitation'), userId: z.string().min(1).max(64) })

export async function action({ request, context, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  return adminAction(request, Intent, `/admin/purchases${url.search}`, {
    'retry-invitation': async ({ userId }) => {
      await retryInvitation(database(), admin, userId)
      return { type: 'success', title: 'Invitation queued again' }
    },
  })
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)

export default function AdminPurchases({ loaderData, actionData }: Route.ComponentProps) {
  const { query, purchases } = loaderData
  return (
    <AdminPage
      title="Purchases"
      description="Stripe ids to look up in Stripe's dashboard, refunds, and each buyer's repository invitation."
      refusal={actionData?.refusal}
    >
      <AdminSearch id="admin-purchases-q" label="E-mail or Stripe id" query={query} />
      {purchases.length === 0 ? (
        <p className="text-sm text-muted-foreground">No purchases{query ? ' match' : ' yet'}.</p>
      ) : (
        <ul className="divide-y rounded-md border">
          {purchases.map((purchase) => (
            <li key={purchase.id} className="grid gap-2 p-3 text-sm" data-testid="purchase-row">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-medium">
                  {purchase.userId ? (
                    <Link
                      to={`/admin/people/${purchase.userId}`}
                      className="underline-offset-4 hover:underline"
                    >
                      {purchase.email}
                    </Link>
                  ) : (
                    purchase.email
                  )}{' '}
                  · {purchase.tier} {purchase.kind} · {money(purchase.amountCents, purchase.currency)}
                </p>
                <span className="text-muted-foreground">
                  <When at={purchase.createdAt} />
                </span>
              </div>
              <dl className="grid grid-cols-1 gap-x-4 gap-y-1 break-all font-mono text-xs sm:grid-cols-[max-content_1fr]">
                <dt className="font-sans text-muted-foreground">Checkout</dt>
                <dd>{purchase.stripeCheckoutSessionId}</dd>
                <dt className="font-sans text-muted-foreground">Customer</dt>
                <dd>{purchase.stripeCustomerId ?? '—'}</dd>
                <dt className="font-sans text-muted-foreground">
                  {purchase.stripeSubscriptionId ? 'Subscription' : 'Payment'}
                </dt>
                <dd>{purchase.stripeSubscriptionId ?? purchase.stripePaymentIntentId ?? '—'}</dd>
              </dl>
              <div className="flex flex-wrap items-center gap-2">
                {purchase.refundedAt ? (
                  <Badge tone="red">
                    Refunded <When at={purchase.refundedAt} />
                  </Badge>
                ) : null}
                <Badge tone={purchase.invitationStatus === 'sent' ? 'green' : 'amber'}>
                  Invitation: {purchase.invitationStatus ?? 'none'}
                  {purchase.githubLogin ? ` (${purchase.githubLogin})` : ''}
                </Badge>
                {purchase.invitationError ? (
                  <span className="text-destructive">{purchase.invitationError}</span>
                ) : null}
                {purchase.userId && purchase.invitationStatus && purchase.invitationStatus !== 'sent' ? (
                  <ActionButton
                    intent="retry-invitation"
                    fields={{ userId: purchase.userId }}
                    label="Retry invitation"
                    pendingText="Queuing…"
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
