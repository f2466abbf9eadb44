import { sql } from 'drizzle-orm'
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core'
import {
  CHAT_ROLES,
  CHAT_STREAM_STATUSES,
  CHAT_VISIBILITIES,
  PLAN_KINDS,
  PLANS,
  PRIORITIES,
  REACTION_TYPES,
  STATUSES,
  VERIFICATION_PURPOSES,
} from '~/domain/constants'

/**
 * The whole data model (summed up in docs/architecture.md). Ids are random strings, safe to mint on
 * any instance and impossible to enumerate; times are integer milliseconds; money is integer cents.
 * One file on purpose: drizzle-kit diffs it to write migrations, and it reads as one map of the data.
 */
const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID())
const ms = (name: string) => integer(name, { mode: 'timestamp_ms' })
const createdAt = () =>
  ms('created_at')
    .notNull()
    .$defaultFn(() => new Date())
const updatedAt = () =>
  ms('updated_at')
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date())

// ── Accounts ────────────────────────────────────────────────────────────────

export const users = sqliteTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  image: text('image'),
  emailVerifiedAt: ms('email_verified_at'),
  passwordHash: text('password_hash'),
  plan: text('plan', { enum: PLANS }).notNull().default('free'),
  planKind: text('plan_kind', { enum: PLAN_KINDS }),
  accessUntil: ms('access_until'),
  /** The Stripe customer whose payments and subscriptions are this person's (set by a paid checkout). */
  stripeCustomerId: text('stripe_customer_id').unique(),
  onboardedAt: ms('onboarded_at'),
  /** "E-mail me when I'm mentioned" in /settings: on unless the person turns it off. */
  emailOnMention: integer('email_on_mention', { mode: 'boolean' }).notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const accounts = sqliteTable(
  'accounts',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_provider_account_unique').on(t.provider, t.providerAccountId),
    index('accounts_user_id_idx').on(t.userId),
  ],
)

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 of the cookie's random id: a leaked table cannot be replayed as cookies. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
    lastSeenAt: ms('last_seen_at')
      .notNull()
      .$defaultFn(() => new Date()),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
)

export const verifications = sqliteTable(
  'verifications',
  {
    id: id(),
    purpose: text('purpose', { enum: VERIFICATION_PURPOSES }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address being proven, so a later change of e-mail cannot ride on an old link. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ms('expires_at').notNull(),
    usedAt: ms('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('verifications_user_id_idx').on(t.userId, t.purpose)],
)

// ── Tasks ───────────────────────────────────────────────────────────────────

export const tasks = sqliteTable(
  'tasks',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    details: text('details'),
    refLink: text('ref_link'),
    priority: text('priority', { enum: PRIORITIES }).notNull().default('medium'),
    status: text('status', { enum: STATUSES }).notNull().default('Not Started'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(false),
    parentTaskId: text('parent_task_id').references((): AnySQLiteColumn => tasks.id, {
      onDelete: 'cascade',
    }),
    hrs: integer('hrs').notNull().default(1),
    completedAt: ms('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tasks_user_created_idx').on(t.userId, t.createdAt),
    index('tasks_user_status_idx').on(t.userId, t.status),
    // The dashboard's aggregates read only these (app/services/stats.server.ts): its per-person
    // totals and its completions by day never touch the table's rows.
    index('tasks_user_completed_idx').on(t.userId, t.completedAt, t.parentTaskId, t.hrs, t.createdAt),
    index('tasks_user_stats_idx').on(t.userId, t.parentTaskId, t.status, t.priority, t.hrs),
    index('tasks_public_created_idx').on(t.isPublic, t.createdAt).where(sql`${t.isPublic} = 1`),
    index('tasks_parent_idx').on(t.parentTaskId),
    check('tasks_hrs_range', sql`${t.hrs} BETWEEN 1 AND 8`),
    check('tasks_priority_valid', sql`${t.priority} IN ('high', 'medium', 'low')`),
    check('tasks_status_valid', sql`${t.status} IN ('Not Started', 'In Progress', 'Completed')`),
  ],
)

export const taskShares = sqliteTable(
  'task_shares',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    /** Lower-cased. Access follows once a user has verified this address. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.email] }), index('task_shares_email_idx').on(t.email, t.taskId)],
)

// ── Comments ────────────────────────────────────────────────────────────────

export const comments = sqliteTable(
  'comments',
  {
    id: id(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentCommentId: text('parent_comment_id').references((): AnySQLiteColumn => comments.id, {
      onDelete: 'cascade',
    }),
    content: text('content').notNull(),
    /** Set when the author edits; earlier versions live in `comment_revisions`. */
    editedAt: ms('edited_at'),
    /** A deleted comment with replies stays as a placeholder so its thread survives. */
    deletedAt: ms('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('comments_task_created_idx').on(t.taskId, t.createdAt),
    index('comments_parent_idx').on(t.parentCommentId),
    index('comments_user_idx').on(t.userId),
  ],
)

export const commentRevisions = sqliteTable(
  'comment_revisions',
  {
    id: id(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('comment_revisions_comment_idx').on(t.commentId, t.createdAt)],
)

export const commentReactions = sqliteTable(
  'comment_reactions',
  {
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REACTION_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  // One row per (comment, user, type): concurrent toggles cannot double-count.
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId, t.type] }),
    index('comment_reactions_user_idx').on(t.userId),
  ],
)

export const notifications = sqliteTable(
  'notifications',
  {
    id: id(),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['mention'] }).notNull(),
    fromUserId: text('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    /** When a mention e-mail covered it: each mention is e-mailed at most once. */
    emailedAt: ms('emailed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_recipient_unread_idx').on(t.recipientId, t.isRead, t.createdAt),
    index('notifications_task_idx').on(t.taskId),
    index('notifications_comment_idx').on(t.commentId),
    index('notifications_from_user_idx').on(t.fromUserId),
  ],
)

// ── Events: the log every stream reads ──────────────────────────────────────

export const events = sqliteTable(
  'events',
  {
    /** The stream cursor (SSE `id`), the one sequential id in the schema. */
    id: integer('id').primaryKey({ autoIncrement: true }),
    topic: text('topic', { enum: ['tasks', 'comments', 'chats'] }).notNull(),
    type: text('type').notNull(),
    /** No foreign key: the event of a deleted task must outlive the task. */
    taskId: text('task_id'),
    payload: text('payload', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('events_task_idx').on(t.taskId, t.id), index('events_created_idx').on(t.createdAt)],
)

/**
 * Counters that version what the event log cannot (docs/decisions/028-reads-versioned-by-the-event-log.md):
 * `people` moves whenever a person's name, picture, address, verification or existence changes
 * (bumped by triggers on `users`, so no write path can forget it); `pruned-events` is the newest
 * event id pruning has deleted.
 */
export const versionCounters = sqliteTable('version_counters', {
  scope: text('scope', { enum: ['people', 'pruned-events'] }).primaryKey(),
  value: integer('value').notNull().default(0),
})

// ── AI chats ────────────────────────────────────────────────────────────────

export const chats = sqliteTable(
  'chats',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    visibility: text('visibility', { enum: CHAT_VISIBILITIES }).notNull().default('private'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chats_user_updated_idx').on(t.userId, t.updatedAt)],
)

export const chatMessages = sqliteTable(
  'chat_messages',
  {
    id: id(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    role: text('role', { enum: CHAT_ROLES }).notNull(),
    /** The message's text alone, for titles and previews; `parts` is what the chat renders. */
    content: text('content').notNull(),
    /** The AI SDK's `UIMessage` parts: text, tool calls with their input, approval and output. */
    parts: text('parts', { mode: 'json' }).notNull().default([]).$type<unknown[]>(),
    /** The message's place in its chat (timestamps of one exchange can share a millisecond). */
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_chat_created_idx').on(t.chatId, t.createdAt),
    index('chat_messages_chat_position_idx').on(t.chatId, t.position),
  ],
)

/** Addresses a chat is shared with, as tasks are: access follows once that address is verified. */
export const chatShares = sqliteTable(
  'chat_shares',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.email] }), index('chat_shares_email_idx').on(t.email, t.chatId)],
)

/**
 * One generation of an answer. Its chunks are kept in the database while it runs, so any tab on
 * any instance can replay and tail it; `stopRequestedAt` is how a Stop reaches the instance that
 * generates. At most one runs per chat (the partial unique index).
 */
export const chatStreams = sqliteTable(
  'chat_streams',
  {
    id: id(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CHAT_STREAM_STATUSES }).notNull().default('running'),
    stopRequestedAt: ms('stop_requested_at'),
    createdAt: createdAt(),
    /** Touched at every flush: a running stream nobody touched for a while lost its instance. */
    updatedAt: updatedAt(),
  },
  (t) => [
    index('chat_streams_chat_idx').on(t.chatId, t.createdAt),
    uniqueIndex('chat_streams_one_running_idx').on(t.chatId).where(sql`status = 'running'`),
  ],
)

export const chatStreamChunks = sqliteTable(
  'chat_stream_chunks',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => chatStreams.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** One `UIMessageChunk`, as JSON. */
    chunk: text('chunk').notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.seq] })],
)

// ── Payments ────────────────────────────────────────────────────────────────

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

// ── Infrastructure: e-mail, background jobs, rate limits ────────────────────

export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at')
      .notNull()
      .$defaultFn(() => new Date()),
    lastError: text('last_error'),
    sentAt: ms('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('email_outbox_due_idx').on(t.status, t.nextAttemptAt)],
)

export const jobs = sqliteTable(
  'jobs',
  {
    id: id(),
    type: text('type').notNull(),
    payload: text('payload', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    runAt: ms('run_at')
      .notNull()
      .$defaultFn(() => new Date()),
    lockedUntil: ms('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_due_idx').on(t.status, t.runAt)],
)

/** Fixed-window counters, shared by every instance through the database. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: ms('reset_at').notNull(),
})

export type User = typeof users.$inferSelect
export type Task = typeof tasks.$inferSelect
export type Comment = typeof comments.$inferSelect
