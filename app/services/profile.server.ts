import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { accounts, users } from '~/db/schema'
import { commit, wroteJustBefore } from '~/db/write.server'
import { emailStatement } from '~/email/outbox.server'
import { passwordChangedMessage } from '~/email/templates.server'
import { hashPassword, verifyPassword } from '~/utils/crypto.server'
import { DELETE_ACCOUNT_PHRASE } from './account-schemas'
import { Forbidden, Invalid, NotFound } from './errors'
import { revokeOtherSessions, revokeSession, toSessionUser } from './sessions.server'
import { successionSteps, successionsOf } from './workspaces/succession.server'

/**
 * A signed-in person's own account: what /settings and /api/auth show of it, the profile, the
 * password, their sessions, and deleting it. Getting in (sign-up, sign-in, links) is in
 * accounts.server.ts.
 */

export const SESSION_NOT_FOUND = 'That session was not found. It may have ended already.'

export async function getAccount(db: Database, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  if (!user) throw new NotFound('Account not found.')
  const linked = await db
    .select({ provider: accounts.provider })
    .from(accounts)
    .where(eq(accounts.userId, userId))
  return {
    ...toSessionUser(user),
    hasPassword: user.passwordHash !== null,
    providers: linked.map((a) => a.provider),
  }
}

/** When the account was created and last changed (/api/auth reports both). */
export async function getAccountDates(db: Database, userId: string) {
  const [row] = await db
    .select({ createdAt: users.createdAt, updatedAt: users.updatedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  return row
}

export async function updateProfile(
  db: Database,
  userId: string,
  input: { name: string; image?: string | null },
) {
  const { updated } = await commit(db, {
    updated: db
      .update(users)
      .set({ name: input.name, image: input.image ?? null })
      .where(eq(users.id, userId)),
  })
  const [user] = updated.rowsAffected > 0 ? await db.select().from(users).where(eq(users.id, userId)) : []
  if (!user) throw new NotFound('Account not found.')
  return toSessionUser(user)
}

/** The e-mails a person may turn off in /settings' Notifications, each a column of theirs (on by default). */
export type EmailSetting = 'emailOnMention' | 'emailOnDue'

export async function getEmailSettings(db: Database, userId: string): Promise<Record<EmailSetting, boolean>> {
  const [row] = await db
    .select({ emailOnMention: users.emailOnMention, emailOnDue: users.emailOnDue })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!row) throw new NotFound('Account not found.')
  return row
}

export async function setEmailSetting(db: Database, userId: string, setting: EmailSetting, isOn: boolean) {
  await commit(db, {
    setting: db
      .update(users)
      .set({ [setting]: isOn })
      .where(eq(users.id, userId)),
  })
}

/**
 * Keeps the time zone the person's browser reports (the `tz` cookie), which due-date reminders
 * and the assistant read when no request is there to tell them (docs/product-rules.md §1).
 */
export async function keepTimeZone(db: Database, userId: string, timeZone: string) {
  await commit(db, { timeZone: db.update(users).set({ timeZone }).where(eq(users.id, userId)) })
}

/**
 * Changes (or, for OAuth-only accounts, sets) the password and signs out every other session.
 */
export async function changePassword(
  db: Database,
  userId: string,
  sessionId: string,
  input: { currentPassword?: string; newPassword: string },
) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  if (!user) throw new NotFound('Account not found.')
  if (user.passwordHash && !(await verifyPassword(input.currentPassword ?? '', user.passwordHash))) {
    throw new Invalid('Current password is incorrect.', [
      { path: ['currentPassword'], message: 'Current password is incorrect.' },
    ])
  }
  const passwordHash = await hashPassword(input.newPassword)
  await commit(db, {
    password: db.update(users).set({ passwordHash }).where(eq(users.id, userId)),
    email: emailStatement(db, passwordChangedMessage(user.email), wroteJustBefore),
    sessions: revokeOtherSessions(db, userId, sessionId),
  })
}

/**
 * Ends one of the person's own sessions. Any other id — another person's session, one that has
 * already ended — is NotFound: the same answer either way, so it tells nobody whose it was.
 */
export async function endSession(db: Database, userId: string, sessionId: string) {
  if (!(await revokeSession(db, userId, sessionId))) throw new NotFound(SESSION_NOT_FOUND)
}

/**
 * Deletes the account and, through the foreign keys, its tasks, comments, reactions, chats and
 * sessions; each team workspace it owns passes to its next owner first, or goes with it when nobody
 * else is in it (workspaces/succession.server.ts). Confirmed with the password, or the typed
 * phrase for accounts without one.
 */
export async function deleteAccount(
  db: Database,
  userId: string,
  confirm: { password?: string; confirmation?: string },
) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  if (!user) throw new NotFound('Account not found.')
  if (user.passwordHash) {
    if (!(await verifyPassword(confirm.password ?? '', user.passwordHash))) {
      throw new Forbidden('Password is incorrect; the account was not deleted.')
    }
  } else if (confirm.confirmation?.trim().toLowerCase() !== DELETE_ACCOUNT_PHRASE) {
    throw new Invalid(`Type "${DELETE_ACCOUNT_PHRASE}" to confirm.`, [
      { path: ['confirmation'], message: `Type "${DELETE_ACCOUNT_PHRASE}" to confirm.` },
    ])
  }
  const successions = await successionsOf(db, userId)
  await commit(db, {
    workspaces: successionSteps(db, userId, successions, new Date()),
    account: db.delete(users).where(eq(users.id, userId)),
  })
}
