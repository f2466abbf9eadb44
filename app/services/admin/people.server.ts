import { and, count, desc, eq, gt, isNotNull, isNull, like, or } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { purchases, repositoryInvitations, sessions, users } from '~/db/schema'
import { commit, wroteJustBefore } from '~/db/write.server'
import { env } from '~/env.server'
import { appendEvent } from '~/events/log.server'
import { verificationSteps } from '../accounts.server'
import { Conflict, Forbidden, NotFound } from '../errors'
import { listSessions, revokeAllSessions, type SessionMeta, sessionStep } from '../sessions.server'
import { type AdminActor, auditStep } from './audit.server'

/**
 * People, as the admin console sees and helps them: found by name or address, what their account
 * is (sign-up, verification, plan, sessions, purchases), and the support actions on it. Each action
 * is one commit with its audit row. Nothing here reads a task, comment or chat.
 */

const PERSON_NOT_FOUND = 'No such person.'
const NOT_ON_ADMINS = 'Support sign-in is not available for another admin.'
const NOT_ON_YOURSELF = 'You cannot disable your own account.'

/** An address in ADMIN_EMAILS, verified or not. */
function isAdminAddress(email: string) {
  return env().ADMIN_EMAILS.includes(email.toLowerCase())
}

const PEOPLE_PAGE_SIZE = 50

/** People whose name or address contains `query` (any case), newest first; everyone when empty. */
export async function searchPeople(db: Database, query: string, now = new Date()) {
  const pattern = `%${query.trim()}%`
  const liveSessions = db
    .select({ userId: sessions.userId, live: count().as('live') })
    .from(sessions)
    .where(gt(sessions.expiresAt, now))
    .groupBy(sessions.userId)
    .as('live_sessions')
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      plan: users.plan,
      disabledAt: users.disabledAt,
      sessions: liveSessions.live,
    })
    .from(users)
    .leftJoin(liveSessions, eq(liveSessions.userId, users.id))
    .where(query.trim() ? or(like(users.name, pattern), like(users.email, pattern)) : undefined)
    .orderBy(desc(users.createdAt))
    .limit(PEOPLE_PAGE_SIZE)
}

/** One person's account as support needs it: no task, comment or chat of theirs. */
export async function getPerson(db: Database, userId: string) {
  const [person] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      plan: users.plan,
      planKind: users.planKind,
      accessUntil: users.accessUntil,
      disabledAt: users.disabledAt,
      stripeCustomerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!person) throw new NotFound(PERSON_NOT_FOUND)
  const [personSessions, personPurchases, [invitation]] = await Promise.all([
    listSessions(db, userId),
    db
      .select({
        id: purchases.id,
        tier: purchases.tier,
        kind: purchases.kind,
        amountCents: purchases.amountCents,
        currency: purchases.currency,
        refundedAt: purchases.refundedAt,
        createdAt: purchases.createdAt,
      })
      .from(purchases)
      .where(eq(purchases.userId, userId))
      .orderBy(desc(purchases.createdAt)),
    db.select().from(repositoryInvitations).where(eq(repositoryInvitations.userId, userId)).limit(1),
  ])
  return {
    ...person,
    isAdmin: isAdminAddress(person.email),
    sessions: personSessions,
    purchases: personPurchases,
    invitation: invitation ?? null,
  }
}

async function personOf(db: Database, userId: string) {
  const [person] = await db
    .select({ id: users.id, email: users.email, name: users.name, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!person) throw new NotFound(PERSON_NOT_FOUND)
  return person
}

/** All of a person's sessions ended, and the event that ends their open streams at once. */
function endSessionsSteps(db: Database, userId: string) {
  return {
    sessions: revokeAllSessions(db, userId),
    sessionsEnded: appendEvent(db, { topic: 'accounts', type: 'sessions-ended', payload: { userId } }),
  }
}

export async function resendVerification(db: Database, admin: AdminActor, userId: string) {
  const person = await personOf(db, userId)
  if (person.emailVerifiedAt) throw new Conflict('This address is already verified.')
  const { token, email } = verificationSteps(db, person)
  await commit(db, {
    token,
    email,
    audit: auditStep(db, admin, 'resend-verification', { userId, target: person.email }),
  })
}

export async function endAllSessions(db: Database, admin: AdminActor, userId: string) {
  const person = await personOf(db, userId)
  await commit(db, {
    ...endSessionsSteps(db, userId),
    audit: auditStep(db, admin, 'end-sessions', { userId, target: person.email }),
  })
}

/**
 * Disables an account: every session ends with it, open streams end as the event reaches them,
 * and no way in creates or resolves a session for it until it is enabled again.
 */
export async function disablePerson(db: Database, admin: AdminActor, userId: string, now = new Date()) {
  const person = await personOf(db, userId)
  if (userId === admin.id) throw new Conflict(NOT_ON_YOURSELF)
  const { disabled } = await commit(db, {
    disabled: db
      .update(users)
      .set({ disabledAt: now })
      .where(and(eq(users.id, userId), isNull(users.disabledAt))),
    audit: auditStep(db, admin, 'disable', { userId, target: person.email }, wroteJustBefore),
    ...endSessionsSteps(db, userId),
  })
  if (disabled.rowsAffected === 0) throw new Conflict('This account is already disabled.')
}

export async function enablePerson(db: Database, admin: AdminActor, userId: string) {
  const person = await personOf(db, userId)
  const { enabled } = await commit(db, {
    enabled: db
      .update(users)
      .set({ disabledAt: null })
      .where(and(eq(users.id, userId), isNotNull(users.disabledAt))),
    audit: auditStep(db, admin, 'enable', { userId, target: person.email }, wroteJustBefore),
  })
  if (enabled.rowsAffected === 0) throw new Conflict('This account is not disabled.')
}

/**
 * "Sign in as" for support: a session of the person's, marked with the admin who opened it (a
 * banner says so on every page; the person's sessions list shows it), audited in the same commit.
 * Never on an admin, verified or not, and never on a disabled account.
 */
export async function signInAs(
  db: Database,
  admin: AdminActor,
  userId: string,
  meta: Omit<SessionMeta, 'impersonatorId'>,
) {
  const person = await personOf(db, userId)
  if (isAdminAddress(person.email)) throw new Forbidden(NOT_ON_ADMINS)
  const { statement, ...session } = sessionStep(db, userId, { ...meta, impersonatorId: admin.id })
  const { created } = await commit(db, {
    created: statement,
    // Only with the session: a disabled account gets neither.
    audit: auditStep(db, admin, 'sign-in-as', { userId, target: person.email }, wroteJustBefore),
  })
  if (created.rowsAffected === 0) throw new Conflict('This account is disabled.')
  return session
}

/**
 * Ends a support session from its banner, audited as its admin's. Returns the admin's id, so the
 * route can hand the admin's own session back; null when this was no support session.
 */
export async function stopSignInAs(db: Database, sessionId: string, ip: string | null) {
  const [row] = await db
    .select({ userId: sessions.userId, adminId: users.id, adminEmail: users.email })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.impersonatorId))
    .where(eq(sessions.id, sessionId))
    .limit(1)
  if (!row) return null
  const person = await personOf(db, row.userId)
  const admin = { id: row.adminId, email: row.adminEmail, ip }
  await commit(db, {
    ended: db.delete(sessions).where(eq(sessions.id, sessionId)),
    audit: auditStep(db, admin, 'stop-sign-in-as', { userId: row.userId, target: person.email }),
  })
  return admin.id
}
