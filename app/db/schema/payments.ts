import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { PLAN_KINDS } from '~/domain/constants'
import { users } from './accounts'
import { createdAt, id, ms, updatedAt } from './columns'

/** Stripe: purchases, checkouts, subscriptions, refunds, repository invitations, applied events. */
export const purchases = sqliteTable(
  'purchases',
  {
    id: id(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    tier: text('tier', { enum: ['tier1', 'tier2', 'tier3'] }).notNull(),
    kind: text('kind', { enum: PLAN_KINDS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    stripeCheckoutSessionId: text('stripe_checkout_session_id').notNull().unique(),
    stripeCustomerId: text('stripe_customer_id'),
    /** A lifetime purchase's payment, which a refund names. */
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    /** A yearly purchase's subscription, whose state says how long access lasts. */
    stripeSubscriptionId: text('stripe_subscription_id'),
    refundedAt: ms('refunded_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('purchases_user_idx').on(t.userId),
    index('purchases_email_idx').on(t.email),
    index('purchases_payment_intent_idx').on(t.stripePaymentIntentId),
  ],
)

/**
 * Checkout Sessions this app created, so the success page answers from our own records (never
 * from the query string): open until Stripe reports the payment, then paid or failed.
 */
export const checkouts = sqliteTable('checkouts', {
  /** Stripe's Checkout Session id. */
  id: text('id').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  tier: text('tier', { enum: ['tier1', 'tier2', 'tier3'] }).notNull(),
  kind: text('kind', { enum: PLAN_KINDS }).notNull(),
  status: text('status', { enum: ['open', 'paid', 'failed'] })
    .notNull()
    .default('open'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/**
 * Each Stripe subscription as its last applied event left it. Events arrive out of order and
 * more than once: one older than `eventCreatedAt` is ignored. `paidThrough` only grows (the end of
 * the latest paid invoice's period), so renewals extend access whatever order they arrive in.
 */
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    /** Stripe's subscription id. */
    id: text('id').primaryKey(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    /** The tier its price sells, when it is one of ours (a plan switched in the portal changes it). */
    tier: text('tier', { enum: ['tier1', 'tier2', 'tier3'] }),
    status: text('status').notNull(),
    currentPeriodEnd: ms('current_period_end'),
    cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
    endedAt: ms('ended_at'),
    paidThrough: ms('paid_through'),
    lastPaymentFailedAt: ms('last_payment_failed_at'),
    /** Stripe's `created` time of the last subscription event applied, and its id (for ties). */
    eventCreatedAt: ms('event_created_at'),
    eventId: text('event_id'),
  },
  (t) => [index('subscriptions_customer_idx').on(t.stripeCustomerId)],
)

/**
 * Payments Stripe reported fully refunded. A refund may arrive before the purchase it undoes; kept
 * here, it still takes effect when the purchase is recorded.
 */
export const refundedPayments = sqliteTable('refunded_payments', {
  paymentIntentId: text('payment_intent_id').primaryKey(),
  refundedAt: ms('refunded_at').notNull(),
})

/** A buyer's invitation to the private repository: who to invite, and how far it got. */
export const repositoryInvitations = sqliteTable('repository_invitations', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  githubLogin: text('github_login'),
  status: text('status', { enum: ['needs-login', 'pending', 'sent'] }).notNull(),
  lastError: text('last_error'),
  updatedAt: updatedAt(),
})

/** Stripe event ids already processed: a replayed webhook changes nothing. */
export const webhookEvents = sqliteTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ms('received_at')
    .notNull()
    .$defaultFn(() => new Date()),
})
