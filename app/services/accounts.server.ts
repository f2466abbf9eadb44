import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm'
import type { Database, Transaction } from '~/db/client.server'
import { accounts, sessions, users, verifications } from '~/db/schema'
import { type Builder, commit, insertIf, wroteJustBefore } from '~/db/write.server'
import { emailStatement } from '~/email/outbox.server'
import {
  passwordChangedMessage,
  resetPasswordMessage,
  setPasswordMessage,
  verifyEmailMessage,
} from '~/email/templates.server'
import { env } from '~/env.server'
import { hashPassword, hashToken, newToken, verifyPassword } from '~/utils/crypto.server'
import { Conflict, Invalid, NotFound, Unauthorized } from './errors'
import { consumeRateLimit, type RateLimitRule, resetRateLimit } from './rate-limit.server'
import type { SessionUser } from './session-user'
import { revokeAllSessions, toSessionUser } from './sessions.server'

/**
 * Getting in: sign-up, password sign-in, OAuth linking, e-mail verification, password reset, and
 * the account a purchase makes for its buyer. The HTML forms and the /api/auth JSON API both call
 * these; neither holds a rule of its own. What a signed-in person does with their own account
 * (profile, password, sessions, deletion) is in profile.server.ts.
 *
 * One file past the ~300 lines we aim for, on purpose: these flows share one-time tokens, rate
 * limits and the links they e-mail, and split by flow they would import one another's helpers.
 */

const TOKEN_TTL_MS = 60 * 60 * 1000
const MINUTE = 60_000

export const RATE_LIMITS = {
  signInPerEmail: {
    limit: 10,
    windowMs: 15 * MINUTE,
    message: 'Too many sign-in attempts for this e-mail. Try again later.',
  },
  signInPerIp: { limit: 30, windowMs: 15 * MINUTE, message: 'Too many sign-in attempts. Try again later.' },
  signUpPerIp: {
    limit: 10,
    windowMs: 60 * MINUTE,
    message: 'Too many sign-ups from this network. Try again later.',
  },
  resetPerEmail: {
    limit: 3,
    windowMs: 60 * MINUTE,
    message: 'Too many reset requests for this e-mail. Try again later.',
  },
  resetPerIp: { limit: 10, windowMs: 60 * MINUTE, message: 'Too many reset requests. Try again later.' },
  verificationPerUser: {
    limit: 3,
    windowMs: 60 * MINUTE,
    message: 'Too many verification e-mails. Check your inbox or try again later.',
  },
} satisfies Record<string, RateLimitRule>

export const INVALID_CREDENTIALS = 'Invalid e-mail or password.'
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired.'
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.'

type Client = { ip?: string | null }

// ── Sign-up and sign-in ─────────────────────────────────────────────────────

export async function signUp(
  db: Database,
  input: { name: string; email: string; password: string },
  client: Client = {},
): Promise<SessionUser> {
  await consumeRateLimit(db, `sign-up:ip:${client.ip ?? 'unknown'}`, RATE_LIMITS.signUpPerIp)
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1)
  if (existing) throw new Conflict('An account with this e-mail already exists. Sign in instead.')

  const passwordHash = await hashPassword(input.password)
  const user = {
    id: crypto.randomUUID(),
    name: input.name,
    email: input.email,
    image: null,
    emailVerifiedAt: null,
  }
  const written = await commit(db, {
    user: db
      .insert(users)
      .values({ ...user, passwordHash })
      .onConflictDoNothing(),
    // The link and its e-mail go only with the account this commit created.
    ...verificationSteps(db, user, wroteJustBefore),
  })
  if (written.user.rowsAffected === 0) {
    throw new Conflict('An account with this e-mail already exists. Sign in instead.')
  }
  return toSessionUser(user)
}

// Verifying against a real hash when the user is unknown keeps both answers equally slow, so the
// timing does not reveal which addresses have accounts.
let decoyHash: Promise<string> | undefined

export async function signInWithPassword(
  db: Database,
  input: { email: string; password: string },
  client: Client = {},
): Promise<SessionUser> {
  await consumeRateLimit(db, `sign-in:ip:${client.ip ?? 'unknown'}`, RATE_LIMITS.signInPerIp)
  await consumeRateLimit(db, `sign-in:email:${input.email}`, RATE_LIMITS.signInPerEmail)
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1)
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword(randomBytes(16).toString('hex'))
    await verifyPassword(input.password, await decoyHash)
    throw new Unauthorized(INVALID_CREDENTIALS)
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) throw new Unauthorized(INVALID_CREDENTIALS)
  await resetRateLimit(db, `sign-in:email:${input.email}`)
  return toSessionUser(user)
}

export type OAuthProfile = {
  provider: 'github' | 'google'
  providerAccountId: string
  email: string | null
  emailVerified: boolean
  name: string
  image: string | null
}

/**
 * Signs in with a provider's identity. An existing link wins. Otherwise an account with the same
 * address is linked only when the provider vouches for the address AND the account's own address
 * is verified — an account registered with an unverified address is never handed over (its real
 * owner can take it back through "forgot password", which proves the address). With no account,
 * a new one is created, verified when the provider says so (`isNewAccount`: it goes to onboarding).
 */
export async function signInWithOAuth(
  db: Database,
  profile: OAuthProfile,
): Promise<SessionUser & { isNewAccount: boolean }> {
  const [linked] = await db
    .select({ user: users })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(
      and(eq(accounts.provider, profile.provider), eq(accounts.providerAccountId, profile.providerAccountId)),
    )
    .limit(1)
  if (linked) return { ...toSessionUser(linked.user), isNewAccount: false }

  const email = profile.email?.trim().toLowerCase()
  if (!email)
    throw new Invalid(`Your ${providerName(profile.provider)} account has no e-mail address we can use.`)

  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  if (existing) {
    if (!profile.emailVerified) {
      throw new Conflict(
        `An account with ${email} exists, and ${providerName(profile.provider)} has not verified that address. Sign in with your password instead.`,
      )
    }
    if (!existing.emailVerifiedAt) {
      throw new Conflict(
        `An account with ${email} exists but its address was never verified. Use "Forgot password" to prove it is yours, then sign in with ${providerName(profile.provider)}.`,
      )
    }
    await commit(db, {
      account: db.insert(accounts).values({
        userId: existing.id,
        provider: profile.provider,
        providerAccountId: profile.providerAccountId,
      }),
    })
    return { ...toSessionUser(existing), isNewAccount: false }
  }

  const user = {
    id: crypto.randomUUID(),
    email,
    name: profile.name || email.split('@')[0] || '',
    image: profile.image,
    emailVerifiedAt: profile.emailVerified ? new Date() : null,
  }
  await commit(db, {
    user: db.insert(users).values(user),
    account: db
      .insert(accounts)
      .values({ userId: user.id, provider: profile.provider, providerAccountId: profile.providerAccountId }),
    ...(user.emailVerifiedAt ? {} : verificationSteps(db, user)),
  })
  return { ...toSessionUser(user), isNewAccount: true }
}

function providerName(provider: OAuthProfile['provider']) {
  return provider === 'github' ? 'GitHub' : 'Google'
}

// ── E-mail verification ─────────────────────────────────────────────────────

/**
 * A one-time link's token and the statement that records its hash, for the commit that sends it;
 * with `onlyIf`, recorded only when that holds as the commit reaches it.
 */
function tokenStatement(
  db: Builder,
  user: { id: string; email: string },
  purpose: 'verify-email' | 'reset-password',
  onlyIf?: SQL,
) {
  const token = newToken()
  const values = {
    userId: user.id,
    email: user.email,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
  }
  return { token, statement: insertIf(db, verifications, values, onlyIf ?? sql`1`) }
}

function link(path: string, token: string) {
  return `${env().BASE_URL}${path}?${new URLSearchParams({ token })}`
}

/** The verification link and its e-mail, as two statements of one commit (`onlyIf` as in tokenStatement). */
export function verificationSteps(
  db: Builder,
  user: { id: string; email: string; name: string },
  onlyIf?: SQL,
) {
  const { token, statement } = tokenStatement(db, user, 'verify-email', onlyIf)
  const message = verifyEmailMessage(user.email, user.name, link('/email/verify-email', token))
  return { token: statement, email: emailStatement(db, message, onlyIf && wroteJustBefore) }
}

/** Sends a fresh verification link to a person whose address is not verified yet. */
export async function requestEmailVerification(db: Database, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  if (!user) throw new NotFound('Account not found.')
  if (user.emailVerifiedAt) throw new Conflict('Your e-mail address is already verified.')
  await consumeRateLimit(db, `verification:user:${user.id}`, RATE_LIMITS.verificationPerUser)
  await commit(db, verificationSteps(db, user))
}

/** Uses up a verification token; the address it was sent to becomes verified. */
export async function verifyEmail(db: Database, token: string): Promise<SessionUser> {
  const row = await consumeToken(db, token, 'verify-email', INVALID_VERIFICATION_LINK)
  const isTheAccount = and(eq(users.id, row.userId), eq(users.email, row.email))
  const { verified } = await commit(db, {
    verified: db.update(users).set({ emailVerifiedAt: new Date() }).where(isTheAccount),
  })
  if (verified.rowsAffected === 0) throw new Invalid(INVALID_VERIFICATION_LINK)
  const [user] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1)
  if (!user) throw new Invalid(INVALID_VERIFICATION_LINK)
  return toSessionUser(user)
}

async function consumeToken(
  db: Database,
  token: string,
  purpose: 'verify-email' | 'reset-password',
  message: string,
) {
  if (!token) throw new Invalid(message)
  // Marking it used in the same statement that finds it makes a token single-use even when two
  // requests race with it.
  const { used } = await commit(db, {
    used: db
      .update(verifications)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(verifications.tokenHash, hashToken(token)),
          eq(verifications.purpose, purpose),
          isNull(verifications.usedAt),
          gt(verifications.expiresAt, new Date()),
        ),
      )
      .returning({ userId: verifications.userId, email: verifications.email }),
  })
  const [row] = used.rows
  if (!row) throw new Invalid(message)
  return { userId: String(row[verifications.userId.name]), email: String(row[verifications.email.name]) }
}

// ── Password reset ──────────────────────────────────────────────────────────

/** Answers the same whether or not the address has an account: nothing to enumerate. */
export async function requestPasswordReset(db: Database, email: string, client: Client = {}) {
  await consumeRateLimit(db, `reset:ip:${client.ip ?? 'unknown'}`, RATE_LIMITS.resetPerIp)
  await consumeRateLimit(db, `reset:email:${email}`, RATE_LIMITS.resetPerEmail)
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  if (!user) return
  const { token, statement } = tokenStatement(db, user, 'reset-password')
  await commit(db, {
    token: statement,
    email: emailStatement(db, resetPasswordMessage(user.email, link('/email/reset-password', token))),
  })
}

/**
 * Sets a new password from a reset link, uses the link up and ends every session. The link
 * proves the address, so it also counts as verification.
 */
export async function resetPassword(db: Database, token: string, password: string): Promise<SessionUser> {
  const row = await consumeToken(db, token, 'reset-password', INVALID_RESET_LINK)
  const passwordHash = await hashPassword(password)
  const isTheAccount = and(eq(users.id, row.userId), eq(users.email, row.email))
  const stillTheAccount = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${isTheAccount})`
  const { user } = await commit(db, {
    user: db.update(users).set({ passwordHash, emailVerifiedAt: new Date() }).where(isTheAccount),
    sessions: db.delete(sessions).where(and(eq(sessions.userId, row.userId), stillTheAccount)),
    email: emailStatement(db, passwordChangedMessage(row.email), stillTheAccount),
  })
  if (user.rowsAffected === 0) throw new Invalid(INVALID_RESET_LINK)
  const [account] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1)
  if (!account) throw new Invalid(INVALID_RESET_LINK)
  return toSessionUser(account)
}

// ── Buyers ──────────────────────────────────────────────────────────────────

export type Buyer = { id: string; email: string; isNew: boolean }

/**
 * The account a paid order belongs to: the person signed in at checkout, else the account whose
 * verified address paid, else a new account for that address. Nobody can claim a purchase by
 * signing up first with someone else's address: an account whose address was never verified
 * loses its password, sign-in links and sessions, and the address's owner gets a link to set a
 * password (which verifies it). A new account gets the same link.
 */
export async function findOrCreateBuyer(
  tx: Transaction,
  order: { userId: string | null; email: string; name: string },
): Promise<Buyer> {
  if (order.userId) {
    const [user] = await tx.select().from(users).where(eq(users.id, order.userId)).limit(1)
    if (user) return { id: user.id, email: user.email, isNew: false }
  }
  const email = order.email.trim().toLowerCase()
  const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1)
  if (existing?.emailVerifiedAt) return { id: existing.id, email, isNew: false }
  if (existing) {
    await tx.update(users).set({ passwordHash: null }).where(eq(users.id, existing.id))
    await tx.delete(accounts).where(eq(accounts.userId, existing.id))
    await revokeAllSessions(tx, existing.id)
    await queueSetPasswordEmail(tx, existing)
    return { id: existing.id, email, isNew: false }
  }
  const [user] = await tx
    .insert(users)
    .values({ email, name: order.name.trim() || email.split('@')[0] || '' })
    .returning()
  if (!user) throw new Error(`Could not create an account for ${email}`)
  await queueSetPasswordEmail(tx, user)
  return { id: user.id, email, isNew: true }
}

async function queueSetPasswordEmail(tx: Transaction, user: { id: string; email: string }) {
  const { token, statement } = tokenStatement(tx, user, 'reset-password')
  await statement
  await emailStatement(tx, setPasswordMessage(user.email, link('/email/reset-password', token)))
}
