import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { rateLimits } from '~/db/schema'
import { RateLimited } from './errors'
import { consumeRateLimit, pruneRateLimits, type RateLimitRule, resetRateLimit } from './rate-limit.server'

/**
 * Fixed windows kept in the database: the limit-th attempt passes, the next is refused with the
 * seconds until the window ends, and a new window starts clean. `now` is passed, never waited for.
 */

const MINUTE = 60_000
const RULE: RateLimitRule = { limit: 3, windowMs: 15 * MINUTE, message: 'Slow down.' }
const START = Date.UTC(2030, 0, 1)

let sequence = 0
const freshKey = () => `test:key:${++sequence}`

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof RateLimited) return error
    throw error
  }
  throw new Error('Expected the attempt to be rate limited')
}

async function countOf(key: string) {
  const [row] = await database().select().from(rateLimits).where(eq(rateLimits.key, key))
  return row?.count
}

describe('consumeRateLimit', () => {
  test('counts each attempt in the database', async () => {
    const key = freshKey()
    await consumeRateLimit(database(), key, RULE, START)
    await consumeRateLimit(database(), key, RULE, START + 1000)
    expect(await countOf(key)).toBe(2)
    const [row] = await database().select().from(rateLimits).where(eq(rateLimits.key, key))
    // The window runs from the first attempt, not the latest.
    expect(row?.resetAt.getTime()).toBe(START + RULE.windowMs)
  })

  test('allows `limit` attempts, then refuses with the message and Retry-After seconds', async () => {
    const key = freshKey()
    for (let attempt = 0; attempt < RULE.limit; attempt++) {
      await consumeRateLimit(database(), key, RULE, START + attempt * MINUTE)
    }
    const error = await refusal(consumeRateLimit(database(), key, RULE, START + 5 * MINUTE))
    expect(error.message).toBe('Slow down.')
    expect(error.status).toBe(429)
    expect(error.code).toBe('TOO_MANY_REQUESTS')
    // Ten minutes of the window are left.
    expect(error.retryAfter).toBe(10 * 60)
  })

  test('stays refused until the window ends, counting down', async () => {
    const key = freshKey()
    for (let attempt = 0; attempt < RULE.limit; attempt++)
      await consumeRateLimit(database(), key, RULE, START)
    expect((await refusal(consumeRateLimit(database(), key, RULE, START + 14 * MINUTE))).retryAfter).toBe(60)
    // Less than a second left still says "one second", never zero.
    expect(
      (await refusal(consumeRateLimit(database(), key, RULE, START + 15 * MINUTE - 10))).retryAfter,
    ).toBe(1)
  })

  test('a new window starts clean once the old one is over', async () => {
    const key = freshKey()
    for (let attempt = 0; attempt <= RULE.limit; attempt++) {
      await consumeRateLimit(database(), key, RULE, START).catch(() => {})
    }
    const later = START + RULE.windowMs
    await consumeRateLimit(database(), key, RULE, later)
    expect(await countOf(key)).toBe(1)
    const [row] = await database().select().from(rateLimits).where(eq(rateLimits.key, key))
    expect(row?.resetAt.getTime()).toBe(later + RULE.windowMs)
  })

  test('keys are independent', async () => {
    const [a, b] = [freshKey(), freshKey()]
    for (let attempt = 0; attempt < RULE.limit; attempt++) await consumeRateLimit(database(), a, RULE, START)
    await expect(consumeRateLimit(database(), b, RULE, START)).resolves.toBeUndefined()
    await expect(consumeRateLimit(database(), a, RULE, START)).rejects.toBeInstanceOf(RateLimited)
  })

  test('concurrent attempts are all counted (one atomic upsert each)', async () => {
    const key = freshKey()
    const rule = { ...RULE, limit: 5 }
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => consumeRateLimit(database(), key, rule, START)),
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5)
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(3)
    expect(await countOf(key)).toBe(8)
  })
})

describe('resetRateLimit and pruneRateLimits', () => {
  test('reset forgets a key: its next attempt is the first again', async () => {
    const key = freshKey()
    for (let attempt = 0; attempt < RULE.limit; attempt++)
      await consumeRateLimit(database(), key, RULE, START)
    await resetRateLimit(database(), key)
    await expect(consumeRateLimit(database(), key, RULE, START)).resolves.toBeUndefined()
    expect(await countOf(key)).toBe(1)
  })

  test('prune drops only the windows that are over', async () => {
    const [old, current] = [freshKey(), freshKey()]
    await consumeRateLimit(database(), old, RULE, START)
    await consumeRateLimit(database(), current, RULE, START + 10 * MINUTE)
    await pruneRateLimits(database(), START + RULE.windowMs)
    expect(await countOf(old)).toBeUndefined()
    expect(await countOf(current)).toBe(1)
  })
})
