import { eq, sql } from 'drizzle-orm'
import { afterAll, expect, test } from 'vitest'
import { rateLimits } from '~/db/schema'
import { openScratchDatabase } from '../../tests/helpers/db'
import { onCommit } from './client.server'
import { migrateDatabase } from './migrate.server'
import { commit } from './write.server'

/**
 * The client of an embedded file: its write transactions take turns, so many at once — as
 * concurrent requests make them — all commit instead of deadlocking on SQLite's one writer.
 */

const scratch = await openScratchDatabase()
afterAll(() => scratch.close())

test('twenty write transactions started at once all commit, each seeing the last one', async () => {
  const { db } = scratch
  await migrateDatabase(db)
  await db.insert(rateLimits).values({ key: 'counter', count: 0, resetAt: new Date(0) })
  await Promise.all(
    Array.from({ length: 20 }, () =>
      db.transaction(async (tx) => {
        const [row] = await tx.select().from(rateLimits).where(eq(rateLimits.key, 'counter'))
        await tx
          .update(rateLimits)
          .set({ count: (row?.count ?? 0) + 1 })
          .where(eq(rateLimits.key, 'counter'))
      }),
    ),
  )
  const [row] = await db
    .select({ count: sql<number>`count` })
    .from(rateLimits)
    .where(eq(rateLimits.key, 'counter'))
  expect(row?.count).toBe(20)
})

test('a failed transaction rolls back and does not hold up the next one', async () => {
  const { db } = scratch
  const failing = db.transaction(async (tx) => {
    await tx.update(rateLimits).set({ count: 999 }).where(eq(rateLimits.key, 'counter'))
    throw new Error('boom')
  })
  const next = db.transaction((tx) => tx.select().from(rateLimits).where(eq(rateLimits.key, 'counter')))
  await expect(failing).rejects.toThrow('boom')
  expect((await next)[0]?.count).toBe(20)
})

test('a commit of one statement waits its turn behind an open transaction, and is announced', async () => {
  const { db } = scratch
  let announced = 0
  const stopListening = onCommit(() => {
    announced += 1
  })
  let release = () => {}
  let wrote = () => {}
  const hasWritten = new Promise<void>((resolve) => {
    wrote = resolve
  })
  const transaction = db.transaction(async (tx) => {
    await tx.update(rateLimits).set({ count: 30 }).where(eq(rateLimits.key, 'counter'))
    wrote()
    await new Promise<void>((resolve) => {
      release = resolve
    })
  })
  await hasWritten
  // Sent at once, the statement would wait for the lock inside SQLite and block the very thread
  // the transaction needs to commit, until the busy timeout failed it.
  const counted = commit(db, {
    counted: db
      .update(rateLimits)
      .set({ count: sql`${rateLimits.count} + 1` })
      .where(eq(rateLimits.key, 'counter')),
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  release()
  await transaction
  expect((await counted).counted.rowsAffected).toBe(1)
  stopListening()
  expect(announced).toBe(2)
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, 'counter'))
  expect(row?.count).toBe(31)
})
