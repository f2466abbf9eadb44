import { and, eq, exists, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { sessions, type User, users, workspaceMembers } from '~/db/schema'
import { type Builder, commit, insertIf } from '~/db/write.server'
import type { SIGN_IN_METHODS } from '~/domain/constants'
import { hashToken, newToken } from '~/utils/crypto.server'
import { Forbidden } from './errors'
import type { SessionUser, SignedInUser } from './session-user'
import { inWorkspaceSql } from './tasks/rule.server'
import { personalWorkspaceId, workspaceNotFound } from './workspaces/membership.server'

/**
 * Sessions as the table holds them: a row keyed by the hash of the cookie's secret, a life that
 * slides forward with use, and revocation scoped to its owner. Which cookie carries the secret is
 * the request side's business (app/auth/session-cookie.server.ts).
 */

export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000
/** Sliding renewal: a session used within its last 29 days is pushed back to 30 days. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000
/**
 * "Last seen" is worth a write a minute, not one per request. It also tells whether someone is
 * online (mention-emails.server.ts), so it must stay well inside that window.
 */
const LAST_SEEN_PRECISION_MS = 60 * 1000

export function toSessionUser(
  user: Pick<User, 'id' | 'name' | 'email' | 'image' | 'emailVerifiedAt'>,
): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image,
    emailVerified: user.emailVerifiedAt !== null,
  }
}

export type SessionMeta = {
  userAgent?: string | null
  ip?: string | null
  /** The admin signing in as this person for support (app/auth/sign-in-as.server.ts). */
  impersonatorId?: string | null
  /** How the person signed in, for the sessions list; a sign-in always says (app/auth/sign-in.server.ts). */
  method?: (typeof SIGN_IN_METHODS)[number]
  /** True when a second factor was given after the first. */
  isTwoFactor?: boolean
}

export const ACCOUNT_DISABLED = 'This account is disabled. Write to support if you think this is a mistake.'

/**
 * A person who may hold a session: one not disabled by an admin. The one condition both the
 * creation and the per-request lookup of a session apply, and any other way in that resolves a
 * person per request (a token) must apply too.
 */
export const isActiveUser = isNull(users.disabledAt)

/**
 * A new session as a statement, for a commit that does more (app/services/admin/): the token goes
 * into the cookie and nowhere else. A disabled account gets none: the condition rides in the
 * insert, so a disabling that commits meanwhile still wins.
 */
export function sessionStep(db: Builder, userId: string, meta: SessionMeta = {}, now = new Date()) {
  const token = newToken()
  const id = hashToken(token)
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_MS)
  const statement = insertIf(
    db,
    sessions,
    {
      id,
      userId,
      expiresAt,
      lastSeenAt: now,
      createdAt: now,
      userAgent: meta.userAgent?.slice(0, 400) ?? null,
      ip: meta.ip ?? null,
      impersonatorId: meta.impersonatorId ?? null,
      method: meta.method ?? null,
      isTwoFactor: meta.isTwoFactor ?? false,
    },
    exists(
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isActiveUser)),
    ),
  )
  return { token, id, expiresAt, statement }
}

/**
 * Starts a session. Every way in (a password, OAuth, a reset link, "sign in as") ends here or in
 * `sessionStep`, so a disabled account is refused here, whichever way it came in.
 */
export async function createSession(db: Database, userId: string, meta: SessionMeta = {}, now = new Date()) {
  const { statement, ...session } = sessionStep(db, userId, meta, now)
  const { created } = await commit(db, { created: statement })
  if (created.rowsAffected === 0) throw new Forbidden(ACCOUNT_DISABLED)
  return session
}

export type ActiveSession = {
  id: string
  /** The person, with the workspace this session works in (`SignedInUser`). */
  user: SignedInUser
  expiresAt: Date
  createdAt: Date
  lastSeenAt: Date
  ip: string | null
  userAgent: string | null
  /** The admin signed in as this person, for a support session; else null. */
  impersonatorId: string | null
  /** The person's time zone as stored (users.time_zone), read with the session at no extra cost. */
  timeZone: string | null
  /** True when the expiry moved and the cookie must be sent again with the new Max-Age. */
  isRenewed: boolean
}

/**
 * Every request with a cookie asks this: the session, its person and the workspace it works in,
 * in one prepared statement. The session's workspace is joined through the person's membership of
 * it (a primary-key lookup), so one they have left, or that is gone, reads as none.
 */
const liveSessionById = preparedPerDatabase((db) =>
  db
    .select({ session: sessions, user: users, activeWorkspaceId: workspaceMembers.workspaceId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, sessions.activeWorkspaceId),
        eq(workspaceMembers.userId, sessions.userId),
      ),
    )
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        isActiveUser,
      ),
    )
    .limit(1)
    .prepare(),
)

/** The session behind a cookie token, renewed when due; null when unknown or expired. */
export async function findSession(
  db: Database,
  token: string,
  now = new Date(),
): Promise<ActiveSession | null> {
  const id = hashToken(token)
  const [row] = await liveSessionById(db).all({ id, now: now.getTime() })
  if (!row) return null

  const isRenewed = row.session.expiresAt.getTime() - now.getTime() < SESSION_MAX_AGE_MS - RENEW_AFTER_MS
  const isSeenLongAgo = now.getTime() - row.session.lastSeenAt.getTime() > LAST_SEEN_PRECISION_MS
  const expiresAt = isRenewed ? new Date(now.getTime() + SESSION_MAX_AGE_MS) : row.session.expiresAt
  if (isRenewed || isSeenLongAgo) {
    await commit(db, {
      renewed: db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.id, id)),
    })
  }
  const user = toSessionUser(row.user)
  return {
    id,
    user: { ...user, activeWorkspaceId: row.activeWorkspaceId ?? personalWorkspaceId(user) },
    expiresAt,
    createdAt: row.session.createdAt,
    lastSeenAt: isRenewed || isSeenLongAgo ? now : row.session.lastSeenAt,
    ip: row.session.ip,
    userAgent: row.session.userAgent,
    impersonatorId: row.session.impersonatorId,
    timeZone: row.user.timeZone,
    isRenewed,
  }
}

/**
 * Makes a workspace the one this session works in (the header's switcher). It must be one the
 * person is in: any other answers as a workspace that does not exist, and nothing changes. The
 * personal workspace is stored as none (null), what a new session starts with. The membership is
 * the statement's condition, so a removal that commits meanwhile still wins.
 */
export async function setActiveWorkspace(
  db: Database,
  session: { id: string; userId: string },
  workspaceId: string,
) {
  const isPersonal = workspaceId === personalWorkspaceId({ id: session.userId })
  const { switched } = await commit(db, {
    switched: db
      .update(sessions)
      .set({ activeWorkspaceId: isPersonal ? null : workspaceId })
      .where(
        and(
          eq(sessions.id, session.id),
          eq(sessions.userId, session.userId),
          inWorkspaceSql(workspaceId, session.userId, false),
        ),
      ),
  })
  if (switched.rowsAffected === 0) throw workspaceNotFound()
}

export async function deleteSession(db: Database, sessionId: string) {
  await commit(db, { ended: db.delete(sessions).where(eq(sessions.id, sessionId)) })
}

export async function listSessions(db: Database, userId: string, now = new Date()) {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      impersonatorId: sessions.impersonatorId,
      method: sessions.method,
      isTwoFactor: sessions.isTwoFactor,
      // As `findSession` reads it: the workspace only while the person is still in it.
      activeWorkspaceId: workspaceMembers.workspaceId,
    })
    .from(sessions)
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, sessions.activeWorkspaceId),
        eq(workspaceMembers.userId, sessions.userId),
      ),
    )
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(sessions.lastSeenAt)
  return rows.map((row) => ({
    ...row,
    activeWorkspaceId: row.activeWorkspaceId ?? personalWorkspaceId({ id: userId }),
  }))
}

/** Ends one of the user's sessions; another user's session id changes nothing. */
export async function revokeSession(db: Database, userId: string, sessionId: string) {
  const { ended } = await commit(db, {
    ended: db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId))),
  })
  return ended.rowsAffected > 0
}

export function revokeOtherSessions(db: Builder, userId: string, keepSessionId: string) {
  return db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
}

export function revokeAllSessions(db: Builder, userId: string) {
  return db.delete(sessions).where(eq(sessions.userId, userId))
}

/** Ids per query in `liveSessionIds`, well under SQLite's limit on bound parameters. */
const IDS_PER_QUERY = 500

/**
 * Which of these sessions are still live (neither revoked nor expired), for what outlives the
 * request that checked its session: an open event stream ends once its session is gone.
 */
export async function liveSessionIds(db: Database, ids: readonly string[], now = new Date()) {
  const live = new Set<string>()
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.id, ids.slice(start, start + IDS_PER_QUERY)), gt(sessions.expiresAt, now)))
    for (const row of rows) live.add(row.id)
  }
  return live
}

export async function pruneExpiredSessions(db: Database, now = new Date()) {
  await commit(db, { expired: db.delete(sessions).where(lt(sessions.expiresAt, now)) })
}
