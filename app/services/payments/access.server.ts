import { and, desc, eq, inArray, isNull } from 'drizzle-orm'
import type { Transaction } from '~/db/client.server'
import { purchases, subscriptions, users } from '~/db/schema'
import type { PlanId } from '~/domain/constants'

/**
 * A person's plan, plan kind and access end, worked out again from everything recorded about
 * them — purchases and the state of their subscriptions — rather than nudged by each event. So
 * whatever order Stripe's events arrive in, the same records give the same access.
 */

const YEAR_MS = 365 * 24 * 60 * 60_000
/** Subscription states in which nothing more will be paid: access ends when the subscription did. */
const ENDED = new Set(['canceled', 'incomplete_expired', 'unpaid'])

type Subscription = typeof subscriptions.$inferSelect

/** How long a subscription gives access: to its end once over, else through its paid period. */
export function subscriptionAccessEnd(subscription: Subscription): Date | null {
  if (ENDED.has(subscription.status)) return subscription.endedAt ?? subscription.currentPeriodEnd
  const ends = [subscription.currentPeriodEnd, subscription.paidThrough].filter((end) => end !== null)
  return ends.length ? new Date(Math.max(...ends.map((end) => end.getTime()))) : null
}

const tierRank = (plan: PlanId) => ['free', 'tier1', 'tier2', 'tier3'].indexOf(plan)

export async function refreshAccess(tx: Transaction, userId: string) {
  const owned = await tx
    .select()
    .from(purchases)
    .where(and(eq(purchases.userId, userId), isNull(purchases.refundedAt)))
    .orderBy(desc(purchases.createdAt))

  const lifetime = owned
    .filter((purchase) => purchase.kind === 'lifetime')
    .sort((a, b) => tierRank(b.tier) - tierRank(a.tier))[0]
  if (lifetime) {
    await tx
      .update(users)
      .set({ plan: lifetime.tier, planKind: 'lifetime', accessUntil: null })
      .where(eq(users.id, userId))
    return
  }

  const yearly = owned.filter((purchase) => purchase.kind === 'yearly')
  const subscriptionIds = yearly.flatMap((purchase) => purchase.stripeSubscriptionId ?? [])
  const states = subscriptionIds.length
    ? await tx.select().from(subscriptions).where(inArray(subscriptions.id, subscriptionIds))
    : []
  const best = yearly
    .map((purchase) => {
      const state = states.find((subscription) => subscription.id === purchase.stripeSubscriptionId)
      // Until Stripe reports the subscription itself, a paid year counts from the payment.
      const end = (state && subscriptionAccessEnd(state)) ?? new Date(purchase.createdAt.getTime() + YEAR_MS)
      // A plan switched in the customer portal sells another tier than the one bought.
      return { tier: state?.tier ?? purchase.tier, end }
    })
    .sort((a, b) => b.end.getTime() - a.end.getTime() || tierRank(b.tier) - tierRank(a.tier))[0]

  await tx
    .update(users)
    .set(
      best
        ? { plan: best.tier, planKind: 'yearly', accessUntil: best.end }
        : { plan: 'free', planKind: null, accessUntil: null },
    )
    .where(eq(users.id, userId))
}

/** Everyone whose access a subscription's state feeds into. */
export async function refreshAccessForSubscription(tx: Transaction, subscriptionId: string) {
  const owners = await tx
    .selectDistinct({ userId: purchases.userId })
    .from(purchases)
    .where(eq(purchases.stripeSubscriptionId, subscriptionId))
  for (const { userId } of owners) if (userId) await refreshAccess(tx, userId)
}
