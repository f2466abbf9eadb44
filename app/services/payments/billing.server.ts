import { and, desc, eq, inArray } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { purchases, subscriptions, users } from '~/db/schema'
import { activePlan } from '~/domain/entitlements'
import { env } from '~/env.server'
import { Conflict, NotFound } from '../errors'
import type { SessionUser } from '../session-user'
import { subscriptionAccessEnd } from './access.server'
import { getRepositoryInvitation, isInvitationConfigured } from './repository-invitations.server'
import { stripeClient } from './stripe.server'

/** What /settings/billing shows: the plan and how long it lasts, purchases, the invitation. */
export async function getBilling(db: Database, actor: SessionUser, now = new Date()) {
  const [user] = await db
    .select({
      plan: users.plan,
      planKind: users.planKind,
      accessUntil: users.accessUntil,
      stripeCustomerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, actor.id))
    .limit(1)
  if (!user) throw new NotFound('Account not found.')

  const owned = await db
    .select()
    .from(purchases)
    .where(eq(purchases.userId, actor.id))
    .orderBy(desc(purchases.createdAt))
  const subscriptionIds = owned.flatMap((purchase) => purchase.stripeSubscriptionId ?? [])
  const states = subscriptionIds.length
    ? await db.select().from(subscriptions).where(inArray(subscriptions.id, subscriptionIds))
    : []
  // The subscription behind the current yearly plan: the one whose access reaches furthest.
  const subscription =
    user.planKind === 'yearly'
      ? states
          .map((state) => ({ state, end: subscriptionAccessEnd(state)?.getTime() ?? 0 }))
          .sort((a, b) => b.end - a.end)[0]?.state
      : undefined
  const paymentFailed = Boolean(
    subscription?.lastPaymentFailedAt &&
      (!subscription.paidThrough || subscription.lastPaymentFailedAt > subscription.paidThrough),
  )

  return {
    plan: activePlan(user, now),
    heldPlan: user.plan,
    planKind: user.planKind,
    accessUntil: user.accessUntil,
    renews: subscription ? subscription.status === 'active' && !subscription.cancelAtPeriodEnd : false,
    paymentFailed,
    canOpenPortal: Boolean(user.stripeCustomerId && stripeClient()),
    purchases: owned.map((purchase) => ({
      id: purchase.id,
      tier: purchase.tier,
      kind: purchase.kind,
      amountCents: purchase.amountCents,
      currency: purchase.currency,
      createdAt: purchase.createdAt,
      refundedAt: purchase.refundedAt,
    })),
    invitation: isInvitationConfigured() ? await getRepositoryInvitation(db, actor.id) : null,
  }
}

/** One purchase as its receipt shows it; only its buyer may see it. */
export async function getReceipt(db: Database, actor: SessionUser, purchaseId: string) {
  const [purchase] = await db
    .select()
    .from(purchases)
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, actor.id)))
    .limit(1)
  if (!purchase) throw new NotFound('Receipt not found.')
  return purchase
}

/** A Stripe customer-portal session for the buyer: payment methods, invoices, cancelling. */
export async function openCustomerPortal(db: Database, actor: SessionUser) {
  const stripe = stripeClient()
  const [user] = await db
    .select({ customer: users.stripeCustomerId })
    .from(users)
    .where(eq(users.id, actor.id))
    .limit(1)
  if (!stripe || !user?.customer)
    throw new Conflict('There is nothing to manage in Stripe for this account yet.')
  const session = await stripe.billingPortal.sessions.create({
    customer: user.customer,
    return_url: `${env().BASE_URL}/settings/billing`,
  })
  return session.url
}
