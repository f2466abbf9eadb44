import { sql } from 'drizzle-orm'
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
  if (row && row.count > rule.limit) {
    throw new RateLimited(rule.message, Math.max(1, Math.ceil((row.resetAt.getTime() - now) / 1000)))
  }
}

/** Forgets a key, e.g. the failed sign-ins of an address once its owner signs in. */
export async function resetRateLimit(db: Database, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}

/** Drops expired windows; run now and then so the table stays small. */
export async function pruneRateLimits(db: Database, now = Date.now()) {
  await db.delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${now}`)
}
