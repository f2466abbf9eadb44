import { eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rateLimits } from '~/db/schema'
import { commit, insertIf, prepareStep, type StepResult } from '~/db/write.server'
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
  const { window } = await commit(db, {
    window: db
      .insert(rateLimits)
      .values({ key, count: 1, resetAt })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt.getTime()} ELSE ${rateLimits.resetAt} END`,
        },
      })
      .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt }),
  })
  const [row] = window.rows
  if (row && Number(row[rateLimits.count.name]) > rule.limit) {
    throw refusalOf(rule, Number(row[rateLimits.resetAt.name]), now)
  }
}

function refusalOf(rule: RateLimitRule, resetAt: number, now: number) {
  return new RateLimited(rule.message, Math.max(1, Math.ceil((resetAt - now) / 1000)))
}

// ── Counting failures only ──────────────────────────────────────────────────
//
// Where only wrong answers count (two-factor codes), the window is checked before the answer is
// and charged after a wrong one. Reaching the limit restarts the window, so the lockout lasts a
// whole window from the last failure, and a right answer during it is refused too.

/** Throws RateLimited while `key`'s failures fill its window. */
export async function refuseWhileLocked(db: Database, key: string, rule: RateLimitRule, now = Date.now()) {
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(eq(rateLimits.key, key))
  if (row && row.resetAt.getTime() > now && row.count >= rule.limit) {
    throw refusalOf(rule, row.resetAt.getTime(), now)
  }
}

/** Charges one failure to `key`; the one that reaches the limit starts a full window of lockout. */
export async function countFailure(db: Database, key: string, rule: RateLimitRule, now = Date.now()) {
  const resetAt = now + rule.windowMs
  const isExpired = sql`${rateLimits.resetAt} <= ${now}`
  await commit(db, {
    failure: db
      .insert(rateLimits)
      .values({ key, count: 1, resetAt: new Date(resetAt) })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${isExpired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${isExpired} OR ${rateLimits.count} + 1 >= ${rule.limit} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
        },
      }),
  })
}

// ── Inside the commit of the change it limits ───────────────────────────────
//
// A hot write checks and counts its attempt in its own commit (docs/decisions/032-one-commit-per-comment.md):
// the change is written only while the window has allowance left, the attempt is counted only
// when the change was written, and the commit reads the window back so the service can say why
// nothing was written. A refused attempt changes nothing, an accepted one costs no extra commit,
// and concurrent attempts cannot pass the limit: the commit is one transaction. Unlike
// consumeRateLimit, attempts refused for other reasons are not counted. The statements name their
// values as placeholders (`rateLimitParams`), so they are built once (prepareStep).

const limit = {
  key: sql.placeholder('rateLimitKey'),
  max: sql.placeholder('rateLimitMax'),
  resetAt: sql.placeholder('rateLimitResetAt'),
  now: sql.placeholder('now'),
}

/** True while the window of `rateLimitKey` at `now` has allowance left. */
export const hasAllowanceSql = sql`NOT EXISTS (SELECT 1 FROM ${rateLimits} WHERE ${rateLimits.key} = ${limit.key} AND ${rateLimits.resetAt} > ${limit.now} AND ${rateLimits.count} >= ${limit.max})`

/** Counts one attempt in the window of `rateLimitKey`, when `onlyIf` holds as the commit reaches it. */
export function prepareCountAttempt(onlyIf: SQL) {
  return prepareStep((db) =>
    insertIf(db, rateLimits, { key: limit.key, count: 1, resetAt: limit.resetAt }, onlyIf).onConflictDoUpdate(
      {
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${rateLimits.resetAt} <= ${limit.now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${limit.now} THEN excluded.${sql.identifier(rateLimits.resetAt.name)} ELSE ${rateLimits.resetAt} END`,
        },
      },
    ),
  )
}

/** The window of `rateLimitKey` as the commit left it; read it with `spentWindowRefusal`. */
export const readWindow = prepareStep((db) =>
  db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(eq(rateLimits.key, limit.key)),
)

export function rateLimitParams(key: string, rule: RateLimitRule, now: number) {
  return { rateLimitKey: key, rateLimitMax: rule.limit, rateLimitResetAt: now + rule.windowMs, now }
}

/** The refusal to throw when a commit wrote nothing and the window it read back is spent; else undefined. */
export function spentWindowRefusal(
  rule: RateLimitRule,
  window: StepResult,
  now: number,
): RateLimited | undefined {
  const [row] = window.rows
  if (!row) return undefined
  const count = Number(row[rateLimits.count.name])
  const resetAt = Number(row[rateLimits.resetAt.name])
  if (resetAt <= now || count < rule.limit) return undefined
  return refusalOf(rule, resetAt, now)
}

/** Forgets a key, e.g. the failed sign-ins of an address once its owner signs in. */
export async function resetRateLimit(db: Database, key: string) {
  await commit(db, { forgotten: db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`) })
}

/** Drops expired windows; run now and then so the table stays small. */
export async function pruneRateLimits(db: Database, now = Date.now()) {
  await commit(db, { expired: db.delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${now}`) })
}
