import { data, Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { formatDay, optionName } from '~/components/payments/plan-names'
import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { refusalFor } from '~/http/refusals.server'
import { formatMoney } from '~/pricing'
import { getReceipt } from '~/services/payments/billing.server'
import type { Route } from './+types/receipt'

export const meta: Route.MetaFunction = () => [{ title: 'Receipt | Threadwork' }]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

/** A purchase's receipt, printable; only its buyer sees it (anyone else: not found). */
export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  try {
    const purchase = await getReceipt(database(), user, params.purchaseId)
    return {
      seller: { name: 'Threadwork', email: env().SUPPORT_EMAIL },
      receipt: {
        number: purchase.id.slice(0, 8).toUpperCase(),
        paidOn: purchase.createdAt.toISOString(),
        refundedOn: purchase.refundedAt?.toISOString() ?? null,
        item: optionName(purchase.tier, purchase.kind),
        amount: formatMoney(purchase.amountCents, purchase.currency),
        email: purchase.email,
        reference:
          purchase.stripePaymentIntentId ?? purchase.stripeSubscriptionId ?? purchase.stripeCheckoutSessionId,
      },
    }
  } catch (error) {
    const { reason, init } = refusalFor(error)
    throw data(reason.message, init)
  }
}

export default function Receipt({ loaderData }: Route.ComponentProps) {
  const { receipt, seller } = loaderData
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <p className="text-sm print:hidden">
        <Link to="/settings/billing" className="font-medium text-primary underline-offset-4 hover:underline">
          ← Billing
        </Link>
      </p>
      <article aria-labelledby="receipt-heading" className="mt-4 rounded-lg border bg-card p-8">
        <h1 id="receipt-heading" className="text-2xl font-semibold">
          Receipt {receipt.number}
        </h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {seller.name} · {seller.email}
        </p>
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Paid on</dt>
          <dd>{formatDay(receipt.paidOn)}</dd>
          <dt className="text-muted-foreground">Billed to</dt>
          <dd className="break-all">{receipt.email}</dd>
          <dt className="text-muted-foreground">Item</dt>
          <dd>Threadwork {receipt.item}</dd>
          <dt className="text-muted-foreground">Amount paid</dt>
          <dd className="font-medium" data-testid="receipt-amount">
            {receipt.amount}
          </dd>
          <dt className="text-muted-foreground">Payment reference</dt>
          <dd className="break-all font-mono text-xs">{receipt.reference}</dd>
          {receipt.refundedOn ? (
            <>
              <dt className="text-muted-foreground">Refunded on</dt>
              <dd>{formatDay(receipt.refundedOn)}</dd>
            </>
          ) : null}
        </dl>
      </article>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
