import { type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rateLimits } from '~/db/schema'
import { RateLimited } from './errors'

export type RateLimitRule = {
  /** Attempts allowed per window. */
  limit: number
  windowMs: number
  /** What the person is told when the limit is hit. */
  message: string
}

/**
 * Counts one attempt against `key` (e.g. `sign-in:ip:1.2.3.4`) and throws RateLimited once the
 * window's allowance is spent. Fixed windows kept in the database, so the limit holds across
 * instances; one upsert per attempt, atomic in SQLite.
 */
export async function consumeRateLimit(db: Database, key: string, rule: RateLimitRule, now = Date.now()) {
  const resetAt = new Date(now + rule.windowMs)
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt.getTime()} ELSE ${rateLimits.resetAt} END`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt })
  if (row && row.count > rule.limit) throw refusalOf(rule, row.resetAt.getTime(), now)
}

function refusalOf(rule: RateLimitRule, resetAt: number, now: number) {
  return new RateLimited(rule.message, Math.max(1, Math.ceil((resetAt - now) / 1000)))
}

// ── Inside the batch of the change it limits ────────────────────────────────
//
// A hot write checks and counts its attempt in its own batch (docs/decisions/026-hot-writes-as-batches.md):
// the change is written only while the window has allowance left, the attempt is counted only
// when the change was written, and the batch reads the window back so the service can say why
// nothing was written. A refused attempt changes nothing, an accepted one costs no extra commit,
// and concurrent attempts cannot pass the limit: the batch is one transaction. Unlike
// consumeRateLimit, attempts refused for other reasons are not counted. The SQL names its values
// as placeholders (`rateLimitParams`), so statements that use it are built once.

/** True while the window of `rateLimitKey` at `now` has allowance left. */
export const hasAllowanceSql = sql`NOT EXISTS (SELECT 1 FROM ${rateLimits} WHERE ${rateLimits.key} = ${sql.placeholder('rateLimitKey')} AND ${rateLimits.resetAt} > ${sql.placeholder('now')} AND ${rateLimits.count} >= ${sql.placeholder('rateLimitMax')})`

/** Counts one attempt in the window of `rateLimitKey`, when `onlyIf` holds as the batch reaches it. */
export function countAttemptSql(onlyIf: SQL) {
  const now = sql.placeholder('now')
  return sql`INSERT INTO ${rateLimits} (key, count, reset_at) SELECT ${sql.placeholder('rateLimitKey')}, 1, ${sql.placeholder('rateLimitResetAt')} WHERE ${onlyIf} ON CONFLICT (key) DO UPDATE SET count = CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END, reset_at = CASE WHEN ${rateLimits.resetAt} <= ${now} THEN excluded.reset_at ELSE ${rateLimits.resetAt} END`
}

/** The window of `rateLimitKey` as the batch left it. */
export const readWindowSql = sql`SELECT ${rateLimits.count} AS count, ${rateLimits.resetAt} AS resetAt FROM ${rateLimits} WHERE ${rateLimits.key} = ${sql.placeholder('rateLimitKey')}`

export function rateLimitParams(key: string, rule: RateLimitRule, now: number) {
  return { rateLimitKey: key, rateLimitMax: rule.limit, rateLimitResetAt: now + rule.windowMs, now }
}

/** The refusal to throw when a batch wrote nothing and the window it read back is spent; else undefined. */
export function spentWindowRefusal(
  rule: RateLimitRule,
  window: { count?: unknown; resetAt?: unknown } | undefined,
  now: number,
): RateLimited | undefined {
  if (!window || Number(window.resetAt) <= now || Number(window.count) < rule.limit) return undefined
  return refusalOf(rule, Number(window.resetAt), now)
}

/** Forgets a key, e.g. the failed sign-ins of an address once its owner signs in. */
export async function resetRateLimit(db: Database, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}

/** Drops expired windows; run now and then so the table stays small. */
export async function pruneRateLimits(db: Database, now = Date.now()) {
  await db.delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${now}`)
}
