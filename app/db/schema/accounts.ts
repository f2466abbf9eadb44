import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { PLAN_KINDS, PLANS, SIGN_IN_METHODS, VERIFICATION_PURPOSES } from '~/domain/constants'
import { createdAt, id, ms, updatedAt } from './columns'
// A cycle only through references resolved lazily: a session names its workspace, a workspace its people.
import { workspaces } from './workspaces'

/** People, their OAuth links, their sessions and the single-use links that prove an address. */
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
  /** "E-mail me on the day a task is due" in /settings: on unless the person turns it off. */
  emailOnDue: integer('email_on_due', { mode: 'boolean' }).notNull().default(true),
  /** The IANA time zone the person's browser last reported (the `tz` cookie); null until it has. */
  timeZone: text('time_zone'),
  /**
   * Set by an admin (/admin): no session is created for a disabled person and none resolves
   * (app/services/sessions.server.ts), whichever way they sign in.
   */
  disabledAt: ms('disabled_at'),
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
    /**
     * The admin who signed in as this person for support ("sign in as", /admin); null for the
     * person's own sessions. Their session list shows it, and every page shows a banner.
     */
    impersonatorId: text('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    /** How the person proved who they are; null for sessions older than the column. */
    method: text('method', { enum: SIGN_IN_METHODS }),
    /** True when a second factor (a code or a recovery code) was given after the first. */
    isTwoFactor: integer('two_factor', { mode: 'boolean' }).notNull().default(false),
    /** The workspace this session works in (the header's switcher); null for the person's personal one. */
    activeWorkspaceId: text('active_workspace_id').references((): AnySQLiteColumn => workspaces.id, {
      onDelete: 'set null',
    }),
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

export type User = typeof users.$inferSelect
