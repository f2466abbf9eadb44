import { desc, eq, like, or } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { purchases, repositoryInvitations, users } from '~/db/schema'
import { commit, wroteJustBefore } from '~/db/write.server'
import { NotFound } from '../errors'
import { retryInvitationSteps } from '../payments/repository-invitations.server'
import { type AdminActor, auditStep } from './audit.server'

/**
 * Purchases as Stripe and the repository invitation left them
 * (docs/decisions/021-webhooks-rebuild-access.md, docs/decisions/036-stripe-reconciliation.md):
 * the Stripe ids to look up in its dashboard, refunds, and how far the buyer's invitation got,
 * with "retry invitation" for one that is not sent.
 */

const PURCHASES_PAGE_SIZE = 100

/** Purchases newest first; `query` narrows to an address or a Stripe id containing it. */
export async function listPurchases(db: Database, query = '') {
  const pattern = `%${query.trim()}%`
  return db
    .select({
      id: purchases.id,
      userId: purchases.userId,
      email: purchases.email,
      name: users.name,
      tier: purchases.tier,
      kind: purchases.kind,
      amountCents: purchases.amountCents,
      currency: purchases.currency,
      stripeCheckoutSessionId: purchases.stripeCheckoutSessionId,
      stripeCustomerId: purchases.stripeCustomerId,
      stripePaymentIntentId: purchases.stripePaymentIntentId,
      stripeSubscriptionId: purchases.stripeSubscriptionId,
      refundedAt: purchases.refundedAt,
      createdAt: purchases.createdAt,
      invitationStatus: repositoryInvitations.status,
      githubLogin: repositoryInvitations.githubLogin,
      invitationError: repositoryInvitations.lastError,
    })
    .from(purchases)
    .leftJoin(users, eq(users.id, purchases.userId))
    .leftJoin(repositoryInvitations, eq(repositoryInvitations.userId, purchases.userId))
    .where(
      query.trim()
        ? or(
            like(purchases.email, pattern),
            like(purchases.stripeCheckoutSessionId, pattern),
            like(purchases.stripeCustomerId, pattern),
            like(purchases.stripePaymentIntentId, pattern),
            like(purchases.stripeSubscriptionId, pattern),
          )
        : undefined,
    )
    .orderBy(desc(purchases.createdAt))
    .limit(PURCHASES_PAGE_SIZE)
}

const INVITATION_NOT_RETRIABLE = 'This buyer has no invitation waiting: it was sent, or never started.'

/** Runs a buyer's repository invitation again now; audited only when there was one to retry. */
export async function retryInvitation(db: Database, admin: AdminActor, userId: string, now = new Date()) {
  const [buyer] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
  if (!buyer) throw new NotFound(INVITATION_NOT_RETRIABLE)
  const { invitation, job } = retryInvitationSteps(db, userId, now)
  const result = await commit(db, {
    invitation,
    audit: auditStep(db, admin, 'retry-invitation', { userId, target: buyer.email }, wroteJustBefore),
    job,
  })
  if (result.invitation.rowsAffected === 0) throw new NotFound(INVITATION_NOT_RETRIABLE)
}
