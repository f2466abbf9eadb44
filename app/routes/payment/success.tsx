import { useEffect, useState } from 'react'
import { data, Link, useLocation, useRevalidator } from 'react-router'
import { getUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { RepositoryInvitation } from '~/components/payments/repository-invitation'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { refusalFor } from '~/http/refusals.server'
import { BILLING_TERMS, findPlan } from '~/pricing'
import { getCheckoutState } from '~/services/payments/checkout.server'
import {
  getRepositoryInvitation,
  isInvitationConfigured,
} from '~/services/payments/repository-invitations.server'
import { useHydrated } from '~/utils/use-hydrated'
import type { Route } from './+types/success'

export const meta: Route.MetaFunction = () => [
  { title: 'Your order | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

/** Checking again while Stripe's event is on its way: every 2 s, for up to a minute. */
const REFRESH_MS = 2_000
const MAX_REFRESHES = 30

/**
 * Where Stripe sends the buyer back. What it says comes from our database, never from the query
 * string: paid once the webhook recorded the purchase, pending until then, failed when Stripe
 * said so. A session id we never created is not found.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const sessionId = url.searchParams.get('session_id') ?? ''
  const db = database()
  const user = await getUser(request, context)
  try {
    const order = await getCheckoutState(db, user, sessionId)
    const invitation =
      order.status === 'paid' && order.isBuyer && user && isInvitationConfigured()
        ? await getRepositoryInvitation(db, user.id)
        : null
    return {
      status: order.status,
      planName: findPlan(order.tier).name,
      planLabel: BILLING_TERMS[order.plan].label,
      isSignedIn: user !== null,
      isBuyer: order.isBuyer,
      invitation,
    }
  } catch (error) {
    const { reason, init } = refusalFor(error)
    throw data(reason.message, init)
  }
}

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const order = loaderData
  const location = useLocation()
  const isHydrated = useHydrated()
  useRefreshWhilePending(order.status === 'pending')
  const option = `${order.planName} (${order.planLabel.toLowerCase()})`

  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight">Your order</h1>
      <div className="mt-6" data-testid="order-status" data-status={order.status}>
        {order.status === 'paid' ? (
          <Alert tone="success">
            <AlertTitle>Payment received — thank you!</AlertTitle>
            <p className="mt-1">
              Threadwork {option} is yours. A thank-you e-mail with the details is on its way.
            </p>
          </Alert>
        ) : order.status === 'pending' ? (
          <Alert>
            <AlertTitle>Waiting for the payment to be confirmed</AlertTitle>
            <p className="mt-1">
              Stripe is confirming your payment for Threadwork {option}. This takes a few seconds.
            </p>
            <p className="mt-1">
              {isHydrated
                ? 'This page checks again by itself.'
                : 'This page does not refresh itself without JavaScript: reload it in a moment.'}
            </p>
          </Alert>
        ) : (
          <Alert tone="error">
            <AlertTitle>The payment did not go through</AlertTitle>
            <p className="mt-1">
              Nothing was charged for Threadwork {option}. You can try again from the pricing page.
            </p>
          </Alert>
        )}
      </div>

      {order.status === 'paid' && order.invitation ? (
        <section aria-labelledby="repository-heading" className="mt-8 rounded-lg border bg-card p-6">
          <h2 id="repository-heading" className="text-lg font-semibold">
            Repository access
          </h2>
          <div className="mt-3">
            <RepositoryInvitation invitation={order.invitation} />
          </div>
        </section>
      ) : null}

      {order.status === 'paid' && !order.isSignedIn ? (
        <p className="mt-6 text-sm">
          We e-mailed you a link to set a password for your account (or sign in, if you already have one).
          Your billing page shows the plan, receipts and the repository invitation.
        </p>
      ) : null}

      <div className="mt-8 flex flex-wrap gap-3">
        {order.status === 'paid' ? (
          <Link
            to={order.isSignedIn ? '/settings/billing' : '/login?redirect=/settings/billing'}
            className={buttonClasses('default')}
          >
            {order.isSignedIn ? 'Go to billing' : 'Sign in'}
          </Link>
        ) : order.status === 'failed' ? (
          <Link to="/pricing" className={buttonClasses('default')}>
            Back to pricing
          </Link>
        ) : (
          <a href={location.pathname + location.search} className={buttonClasses('outline')}>
            Check again
          </a>
        )}
      </div>
    </main>
  )
}

/** Asks the server again every few seconds while the order is pending, then stops. */
function useRefreshWhilePending(isPending: boolean) {
  const { revalidate, state } = useRevalidator()
  const [refreshes, setRefreshes] = useState(0)
  useEffect(() => {
    if (!isPending || state !== 'idle' || refreshes >= MAX_REFRESHES) return
    const timer = setTimeout(() => {
      setRefreshes((count) => count + 1)
      void revalidate()
    }, REFRESH_MS)
    return () => clearTimeout(timer)
  }, [isPending, state, refreshes, revalidate])
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
