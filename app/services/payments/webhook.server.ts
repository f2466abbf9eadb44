import { and, eq, isNull, lt, notExists, or, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import type { Database, Transaction } from '~/db/client.server'
import { checkouts, purchases, refundedPayments, subscriptions, users, webhookEvents } from '~/db/schema'
import { commitAfterReading } from '~/db/write.server'
import { PLAN_KINDS, type PlanKind } from '~/domain/constants'
import { emailStatement } from '~/email/outbox.server'
import { purchaseThankYouMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { BILLING_TERMS, findPlan, formatMoney, type TierId } from '~/pricing'
import { findOrCreateBuyer } from '../accounts.server'
import { refreshAccess, refreshAccessForSubscription } from './access.server'
import { queueRepositoryInvitation } from './repository-invitations.server'
import { stripePrices } from './stripe.server'

/**
 * What each Stripe event does. An event is applied in one commit together with the row that
 * records its id in `webhook_events`: a replay, or a second delivery racing the first, finds the
 * id taken and changes nothing; an event that fails leaves no trace, so Stripe's retry applies it.
 * Events arrive out of order, so nothing here assumes one came before another: subscription state
 * keeps the time of the last event applied, and access is worked out again from all the records.
 * What an event writes is worked out from rows read inside its commit, so it goes through
 * `commitAfterReading` (app/db/write.server.ts), not `commit`.
 */

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored'

/**
 * The events this file applies: the webhook endpoint subscribes to them, and the reconciliation
 * (reconciliation.server.ts) asks Stripe for them. `apply` takes only these, so a type added here
 * and not handled there, or handled there and not listed here, fails the typecheck.
 */
export const STRIPE_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'charge.refunded',
] as const satisfies readonly Stripe.Event.Type[]

type HandledEvent = Extract<Stripe.Event, { type: (typeof STRIPE_EVENT_TYPES)[number] }>

const isHandled = (event: Stripe.Event): event is HandledEvent =>
  (STRIPE_EVENT_TYPES as readonly string[]).includes(event.type)

export async function handleStripeEvent(db: Database, event: Stripe.Event): Promise<WebhookOutcome> {
  return commitAfterReading(db, async (tx) => {
    const [isNew] = await tx
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id })
    if (!isNew) return 'duplicate'
    return isHandled(event) && (await apply(tx, event)) ? 'applied' : 'ignored'
  })
}

async function apply(tx: Transaction, event: HandledEvent): Promise<boolean> {
  const at = new Date(event.created * 1000)
  switch (event.type) {
    case 'checkout.session.completed':
      // Bank transfers and the like complete unpaid; the money arrives with the next event.
      if (event.data.object.payment_status === 'unpaid') return false
      return fulfil(tx, event.data.object, at)
    case 'checkout.session.async_payment_succeeded':
      return fulfil(tx, event.data.object, at)
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      await tx
        .update(checkouts)
        .set({ status: 'failed' })
        .where(and(eq(checkouts.id, event.data.object.id), eq(checkouts.status, 'open')))
      return true
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await recordSubscription(tx, event.data.object, event)
      await refreshAccessForSubscription(tx, event.data.object.id)
      return true
    case 'invoice.paid':
      return recordInvoice(tx, event.data.object, { paidThrough: invoicePeriodEnd(event.data.object) })
    case 'invoice.payment_failed':
      return recordInvoice(tx, event.data.object, { lastPaymentFailedAt: at })
    case 'charge.refunded':
      return recordRefund(tx, event.data.object, at)
    default:
      return event satisfies never
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null)

// ── A paid order ────────────────────────────────────────────────────────────

function orderOf(session: Stripe.Checkout.Session): { tier: TierId; kind: PlanKind } | null {
  const tier = Number(session.metadata?.tier?.replace(/^tier/, ''))
  const kind = PLAN_KINDS.find((candidate) => candidate === session.metadata?.kind)
  return (tier === 1 || tier === 2 || tier === 3) && kind ? { tier, kind } : null
}

/**
 * Finds or creates the buyer, records the purchase, gives access, and queues the thank-you e-mail
 * and the repository invitation, all or nothing. A session already fulfilled changes nothing.
 */
async function fulfil(tx: Transaction, session: Stripe.Checkout.Session, paidAt: Date): Promise<boolean> {
  const order = orderOf(session)
  const email = session.customer_details?.email ?? session.customer_email
  // A session of another integration on the same Stripe account: not ours to fulfil.
  if (!order || !email) return false
  const [done] = await tx
    .select({ id: purchases.id })
    .from(purchases)
    .where(eq(purchases.stripeCheckoutSessionId, session.id))
    .limit(1)
  if (done) return false

  const buyer = await findOrCreateBuyer(tx, {
    userId: session.client_reference_id,
    email,
    name: session.customer_details?.name ?? '',
  })
  const paymentIntentId = idOf(session.payment_intent)
  const [refund] = paymentIntentId
    ? await tx.select().from(refundedPayments).where(eq(refundedPayments.paymentIntentId, paymentIntentId))
    : []
  const tier = `tier${order.tier}` as const
  const amountCents = session.amount_total ?? 0
  const currency = (session.currency ?? 'usd').toUpperCase()

  await tx.insert(purchases).values({
    userId: buyer.id,
    email: buyer.email,
    tier,
    kind: order.kind,
    amountCents,
    currency,
    stripeCheckoutSessionId: session.id,
    stripeCustomerId: idOf(session.customer),
    stripePaymentIntentId: paymentIntentId,
    stripeSubscriptionId: idOf(session.subscription),
    refundedAt: refund?.refundedAt ?? null,
    createdAt: paidAt,
  })
  await rememberCustomer(tx, buyer.id, idOf(session.customer))
  await tx
    .insert(checkouts)
    .values({ id: session.id, userId: buyer.id, tier, kind: order.kind, status: 'paid' })
    .onConflictDoUpdate({ target: checkouts.id, set: { status: 'paid', userId: buyer.id } })
  await refreshAccess(tx, buyer.id)

  const plan = findPlan(order.tier)
  await emailStatement(
    tx,
    purchaseThankYouMessage(
      buyer.email,
      {
        planName: plan.name,
        planLabel: BILLING_TERMS[order.kind].label,
        amount: formatMoney(amountCents, currency),
      },
      { billing: `${env().BASE_URL}/settings/billing` },
    ),
  )
  await queueRepositoryInvitation(tx, buyer.id, paidAt)
  return true
}

/** The buyer's Stripe customer, so the portal opens on their account; a first one is kept. */
async function rememberCustomer(tx: Transaction, userId: string, customerId: string | null) {
  if (!customerId) return
  await tx
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(
      and(
        eq(users.id, userId),
        isNull(users.stripeCustomerId),
        notExists(tx.select({ id: users.id }).from(users).where(eq(users.stripeCustomerId, customerId))),
      ),
    )
}

// ── Subscriptions and their invoices ────────────────────────────────────────

/** The end of the period paid for: Stripe keeps it per subscription item. */
function periodEnd(subscription: Stripe.Subscription): Date | null {
  const ends = subscription.items.data.map((item) => item.current_period_end)
  return ends.length ? new Date(Math.max(...ends) * 1000) : null
}

/** Applies a subscription's state unless a later event (by Stripe's `created`, then id) already did. */
async function recordSubscription(tx: Transaction, subscription: Stripe.Subscription, event: Stripe.Event) {
  const eventCreatedAt = new Date(event.created * 1000)
  const state = {
    stripeCustomerId: idOf(subscription.customer) ?? '',
    tier: tierOfPrice(subscription.items.data.map((item) => item.price?.id)),
    status: event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.status,
    currentPeriodEnd: periodEnd(subscription),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
    eventCreatedAt,
    eventId: event.id,
  }
  await tx
    .insert(subscriptions)
    .values({ id: subscription.id, ...state })
    .onConflictDoUpdate({
      target: subscriptions.id,
      set: state,
      setWhere: or(
        isNull(subscriptions.eventCreatedAt),
        lt(subscriptions.eventCreatedAt, eventCreatedAt),
        and(eq(subscriptions.eventCreatedAt, eventCreatedAt), lt(subscriptions.eventId, event.id)),
      ),
    })
}

/** The tier one of our configured prices sells; a price we do not know sells none of ours. */
function tierOfPrice(priceIds: (string | undefined)[]) {
  const prices = stripePrices()
  const tier = ([1, 2, 3] as const).find((candidate) =>
    priceIds.some((id) => id && id === prices[candidate].yearly),
  )
  return tier ? (`tier${tier}` as const) : null
}

function invoiceSubscriptionId(invoice: Stripe.Invoice) {
  return idOf(invoice.parent?.subscription_details?.subscription)
}

function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const ends = invoice.lines.data.map((line) => line.period.end)
  return ends.length ? new Date(Math.max(...ends) * 1000) : null
}

/**
 * A paid renewal extends access to the end of the period it paid for; a failed one is noted for the
 * billing page. Both only move forward, so their order does not matter. Until a subscription
 * event arrives, the row stands in for it as active.
 */
async function recordInvoice(
  tx: Transaction,
  invoice: Stripe.Invoice,
  change: { paidThrough: Date | null } | { lastPaymentFailedAt: Date },
) {
  const subscriptionId = invoiceSubscriptionId(invoice)
  if (!subscriptionId) return false
  const latest = (column: typeof subscriptions.paidThrough, value: Date) =>
    sql`max(coalesce(${column}, 0), ${value.getTime()})`
  const set =
    'paidThrough' in change
      ? change.paidThrough && { paidThrough: latest(subscriptions.paidThrough, change.paidThrough) }
      : { lastPaymentFailedAt: latest(subscriptions.lastPaymentFailedAt, change.lastPaymentFailedAt) }
  if (!set) return false
  await tx
    .insert(subscriptions)
    .values({
      id: subscriptionId,
      stripeCustomerId: idOf(invoice.customer) ?? '',
      status: 'active',
      ...change,
    })
    .onConflictDoUpdate({ target: subscriptions.id, set })
  await refreshAccessForSubscription(tx, subscriptionId)
  return true
}

// ── Refunds ─────────────────────────────────────────────────────────────────

/** A full refund of a lifetime licence takes its access away; a partial one changes nothing. */
async function recordRefund(tx: Transaction, charge: Stripe.Charge, at: Date) {
  const paymentIntentId = idOf(charge.payment_intent)
  if (!charge.refunded || !paymentIntentId) return false
  await tx.insert(refundedPayments).values({ paymentIntentId, refundedAt: at }).onConflictDoNothing()
  const refunded = await tx
    .update(purchases)
    .set({ refundedAt: at })
    .where(and(eq(purchases.stripePaymentIntentId, paymentIntentId), isNull(purchases.refundedAt)))
    .returning({ userId: purchases.userId })
  for (const { userId } of refunded) if (userId) await refreshAccess(tx, userId)
  return true
}
