import { createHash, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { checkouts, purchases, users } from '~/db/schema'
import { commit } from '~/db/write.server'
import { clientConfig, env } from '~/env.server'
import { type BillingKind, checkoutUrlFor, type TierId } from '~/pricing'
import { NotFound } from '../errors'
import type { SessionUser } from '../session-user'
import { stripeClient, stripePriceFor } from './stripe.server'

/**
 * Starting a purchase, and what the success page may say about it. With Stripe configured for an
 * option, a Checkout Session; otherwise the option's configured checkout link; with neither, the
 * page says checkout is not configured.
 */

export type CheckoutInput = { tier: TierId; plan: BillingKind }

export type CheckoutStart =
  | { kind: 'stripe'; url: string }
  | { kind: 'link'; url: string }
  | { kind: 'not-configured' }

/** A double click, a resubmitted form or a reload within this window reuses one Checkout Session. */
const IDEMPOTENCY_WINDOW_MS = 10 * 60_000

const tierKey = (tier: TierId) => `tier${tier}` as const

/**
 * `attemptKey` names who is asking when nobody is signed in (the form's CSRF token, unique to one
 * browser): with the option and the time window it makes the idempotency key, so the same
 * person's repeated submits get the same session from Stripe and two visitors never share one.
 */
export async function startCheckout(
  db: Database,
  actor: SessionUser | null,
  input: CheckoutInput,
  attemptKey: string | null,
  now = new Date(),
): Promise<CheckoutStart> {
  const price = stripePriceFor(input.tier, input.plan)
  const stripe = stripeClient()
  if (!price || !stripe) {
    const url = checkoutUrlFor(clientConfig().checkout, input.tier, input.plan)
    return url ? { kind: 'link', url } : { kind: 'not-configured' }
  }

  const [buyer] = actor
    ? await db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, actor.id)).limit(1)
    : []
  const who = actor?.id ?? attemptKey
  const window = Math.floor(now.getTime() / IDEMPOTENCY_WINDOW_MS)
  const idempotencyKey = who
    ? `checkout-${createHash('sha256').update(`${who}:${input.tier}:${input.plan}:${window}`).digest('hex')}`
    : `checkout-${randomUUID()}`
  const metadata = { tier: tierKey(input.tier), kind: input.plan }
  const isYearly = input.plan === 'yearly'

  const session = await stripe.checkout.sessions.create(
    {
      mode: isYearly ? 'subscription' : 'payment',
      line_items: [{ price, quantity: 1 }],
      client_reference_id: actor?.id,
      ...(buyer?.customer ? { customer: buyer.customer } : { customer_email: actor?.email }),
      // A one-time payment creates no customer unless asked, and the billing portal needs one.
      ...(isYearly || buyer?.customer ? {} : { customer_creation: 'always' as const }),
      metadata,
      ...(isYearly ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      success_url: successUrl(),
      cancel_url: `${env().BASE_URL}/pricing?billing=${input.plan}`,
    },
    { idempotencyKey },
  )
  if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a URL`)

  await commit(db, {
    checkout: db
      .insert(checkouts)
      .values({ id: session.id, userId: actor?.id ?? null, tier: metadata.tier, kind: input.plan })
      .onConflictDoNothing(),
  })
  return { kind: 'stripe', url: session.url }
}

/** Stripe fills in `{CHECKOUT_SESSION_ID}`; it must reach Stripe unencoded. */
function successUrl() {
  const base = clientConfig().successUrl ?? `${env().BASE_URL}/payment/success`
  return `${base}${base.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`
}

export type CheckoutState = {
  status: 'paid' | 'pending' | 'failed'
  tier: TierId
  plan: BillingKind
  /** Whether the signed-in person is the buyer (and may see their purchase's details). */
  isBuyer: boolean
}

/**
 * The state of one of our Checkout Sessions, from our own records: paid once the webhook
 * recorded the purchase, failed when Stripe said so, pending until then. A session id we never
 * created is not found, whatever the query string claims.
 */
export async function getCheckoutState(
  db: Database,
  actor: SessionUser | null,
  sessionId: string,
): Promise<CheckoutState> {
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, sessionId)).limit(1)
  if (!checkout) throw new NotFound('We could not find that order.')
  const [purchase] = await db
    .select({ userId: purchases.userId })
    .from(purchases)
    .where(eq(purchases.stripeCheckoutSessionId, sessionId))
    .limit(1)
  const ownerId = purchase?.userId ?? checkout.userId
  return {
    status: checkout.status === 'open' ? 'pending' : checkout.status,
    tier: Number(checkout.tier.slice(4)) as TierId,
    plan: checkout.kind,
    isBuyer: actor !== null && actor.id === ownerId,
  }
}
