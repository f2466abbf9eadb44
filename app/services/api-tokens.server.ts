import { randomBytes, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { apiTokens, users } from '~/db/schema'
import { commit, insertIf } from '~/db/write.server'
import { API_TOKEN_LIMITS, type ApiTokenScope } from '~/domain/api-tokens'
import { hashToken } from '~/utils/crypto.server'
import type { NewApiToken } from './api-token-schemas'
import { Conflict, NotFound } from './errors'
import { consumeRateLimit, type RateLimitRule } from './rate-limit.server'
import type { Actor, SessionUser } from './session-user'
import { isActiveUser, toSessionUser } from './sessions.server'

/**
 * Personal API tokens: a person hands one to a script or an AI agent, which then acts as them
 * through /api/rpc, the event streams and /mcp (docs/decisions/042-mcp-first-and-personal-tokens.md).
 *
 * A token is `tw_pat_` (so secret scanners know it), a public id that finds its row, and 32
 * random bytes of secret. The row keeps only the secret's SHA-256, compared in constant time, so
 * neither a leaked table nor a timing probe yields a working token.
 */

export const API_TOKEN_PREFIX = 'tw_pat_'
/** 12 random bytes as base64url: the row's id, public. */
const ID_LENGTH = 16
/** 32 random bytes as base64url: the secret. */
const SECRET_LENGTH = 43
const TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}[\\w-]{${ID_LENGTH + SECRET_LENGTH}}$`)

/** "Last used" is worth a write a minute, not one per request (as a session's "last seen"). */
const LAST_USED_PRECISION_MS = 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export const TOO_MANY_TOKENS = `You can have at most ${API_TOKEN_LIMITS.perPerson} tokens. Revoke one you no longer use first.`
const TOKEN_NOT_FOUND = 'Token not found'

/** Per token, so one runaway script cannot starve its owner's others; a person's pages are not counted. */
export const API_TOKEN_RATE_LIMIT: RateLimitRule = {
  limit: 600,
  windowMs: 60 * 1000,
  message: 'This token has made too many requests. Wait a moment and try again.',
}

export type ApiTokenView = {
  id: string
  name: string
  scope: ApiTokenScope
  createdAt: Date
  lastUsedAt: Date | null
  expiresAt: Date | null
}

/** A token that authenticated: its person and what it may do. */
export type ApiTokenGrant = {
  tokenId: string
  scope: ApiTokenScope
  user: SessionUser
  /** The person's time zone as stored (users.time_zone), read with the token at no extra cost. */
  timeZone: string | null
}

const viewColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  scope: apiTokens.scope,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
  expiresAt: apiTokens.expiresAt,
}

/**
 * Makes a token and returns it: the only time its secret exists outside the caller's hands. At
 * most `API_TOKEN_LIMITS.perPerson` each, counted inside the insert so two at once cannot pass it.
 */
export async function createApiToken(db: Database, actor: Actor, input: NewApiToken, now = new Date()) {
  const id = randomBytes(12).toString('base64url')
  const secret = randomBytes(32).toString('base64url')
  const expiresAt = input.expiry === 'none' ? null : new Date(now.getTime() + Number(input.expiry) * DAY_MS)
  const { token } = await commit(db, {
    token: insertIf(
      db,
      apiTokens,
      {
        id,
        userId: actor.id,
        name: input.name,
        scope: input.scope,
        secretHash: hashToken(secret),
        expiresAt,
        lastUsedAt: null,
        createdAt: now,
      },
      sql`(SELECT count(*) FROM ${apiTokens} WHERE ${apiTokens.userId} = ${actor.id}) < ${API_TOKEN_LIMITS.perPerson}`,
    ),
  })
  if (token.rowsAffected === 0) throw new Conflict(TOO_MANY_TOKENS)
  const view: ApiTokenView = {
    id,
    name: input.name,
    scope: input.scope,
    createdAt: now,
    lastUsedAt: null,
    expiresAt,
  }
  return { token: `${API_TOKEN_PREFIX}${id}${secret}`, view }
}

/** A person's tokens, newest first; expired ones stay listed (marked by the page) until revoked. */
export async function listApiTokens(db: Database, actor: Actor): Promise<ApiTokenView[]> {
  return db
    .select(viewColumns)
    .from(apiTokens)
    .where(eq(apiTokens.userId, actor.id))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
}

/** Revoked at once: the row goes, so the next request with it is refused. */
export async function revokeApiToken(db: Database, actor: Actor, tokenId: string) {
  const { revoked } = await commit(db, {
    revoked: db.delete(apiTokens).where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, actor.id))),
  })
  if (revoked.rowsAffected === 0) throw new NotFound(TOKEN_NOT_FOUND)
}

/** Every bearer request asks this: the token's row and its person in one prepared statement. */
const tokenById = preparedPerDatabase((db) =>
  db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    // A disabled account's tokens authenticate nobody while it stays disabled (/admin).
    .where(and(eq(apiTokens.id, sql.placeholder('id')), isActiveUser))
    .limit(1)
    .prepare(),
)

/**
 * The person and scope behind a bearer token, or null for anything that is not a live token of a
 * live account (malformed, unknown, wrong secret, expired, revoked, account deleted or disabled). Counts the
 * request against the token's rate limit (RateLimited beyond it) and notes "last used" when the
 * note is over a minute old.
 */
export async function authenticateApiToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<ApiTokenGrant | null> {
  if (!TOKEN_SHAPE.test(token)) return null
  const id = token.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + ID_LENGTH)
  const secret = token.slice(API_TOKEN_PREFIX.length + ID_LENGTH)
  const [row] = await tokenById(db).all({ id })
  if (!row) return null
  const isSecretRight = timingSafeEqual(
    Buffer.from(hashToken(secret), 'hex'),
    Buffer.from(row.token.secretHash, 'hex'),
  )
  if (!isSecretRight) return null
  if (row.token.expiresAt && row.token.expiresAt.getTime() <= now.getTime()) return null
  await consumeRateLimit(db, `api-token:${id}`, API_TOKEN_RATE_LIMIT, now.getTime())
  const lastUsed = row.token.lastUsedAt?.getTime() ?? 0
  if (now.getTime() - lastUsed > LAST_USED_PRECISION_MS) {
    await commit(db, { used: db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, id)) })
  }
  return { tokenId: id, scope: row.token.scope, user: toSessionUser(row.user), timeZone: row.user.timeZone }
}

/** Ids per query in `liveApiTokenIds`, well under SQLite's limit on bound parameters. */
const IDS_PER_QUERY = 500

/**
 * Which of these tokens still authenticate (not revoked, not expired, their account not disabled):
 * open event streams ask.
 */
export async function liveApiTokenIds(db: Database, ids: readonly string[], now = new Date()) {
  const live = new Set<string>()
  const isUnexpired = or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now))
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const batch = ids.slice(start, start + IDS_PER_QUERY)
    const rows = await db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(inArray(apiTokens.id, batch), isUnexpired, isActiveUser))
    for (const row of rows) live.add(row.id)
  }
  return live
}
