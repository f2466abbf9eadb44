import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { eq, sql } from 'drizzle-orm'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { describe, expect, test, vi } from 'vitest'
import { dbBusyRetries } from '~/utils/metrics.server'
import { createUser } from '../../tests/helpers/factories'
import { type Database, database, openDatabase } from './client.server'
import { events, jobs, rateLimits } from './schema'
import { commit, commitAfterReading, insertIf, prepareStep, wroteJustBefore } from './write.server'

/**
 * The one way to write (docs/decisions/033-one-way-to-write.md), held to its promises: statements
 * run in the order named and answer under their names, all or nothing; a guarded insert writes the
 * table's typed values, defaults included, only while its condition holds; a prepared statement
 * is built once and bound per call, and refuses what would go wrong silently.
 */

const db = database()
const keyOf = (name: string) => `write-test:${name}:${crypto.randomUUID()}`
const windowOf = (key: string) => db.select().from(rateLimits).where(eq(rateLimits.key, key))

describe('commit', () => {
  test('runs the statements in the order named, and answers each under its name', async () => {
    const key = keyOf('order')
    const result = await commit(db, {
      opened: db.insert(rateLimits).values({ key, count: 1, resetAt: new Date(1_000) }),
      raised: db
        .update(rateLimits)
        .set({ count: sql`${rateLimits.count} + 1` })
        .where(eq(rateLimits.key, key)),
      missed: db
        .update(rateLimits)
        .set({ count: 0 })
        .where(eq(rateLimits.key, `${key}:none`)),
      nothing: undefined,
      read: db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key)),
      listed: [
        db.delete(rateLimits).where(eq(rateLimits.key, key)),
        db.select().from(rateLimits).where(eq(rateLimits.key, key)),
      ],
    })
    expect(result.opened.rowsAffected).toBe(1)
    expect(result.raised.rowsAffected).toBe(1)
    expect(result.missed.rowsAffected).toBe(0)
    expect(result.nothing).toBeUndefined()
    expect(Number(result.read.rows[0]?.[rateLimits.count.name])).toBe(2)
    expect(result.listed).toHaveLength(2)
    expect(result.listed[0]?.rowsAffected).toBe(1)
    expect(result.listed[1]?.rows).toEqual([])
  })

  test('is all or nothing: a failing statement takes the ones before it back', async () => {
    const key = keyOf('atomic')
    await expect(
      commit(db, {
        opened: db.insert(rateLimits).values({ key, count: 1, resetAt: new Date(1_000) }),
        again: db.insert(rateLimits).values({ key, count: 1, resetAt: new Date(1_000) }),
      }),
    ).rejects.toThrow(/UNIQUE/)
    expect(await windowOf(key)).toEqual([])
  })

  test('refuses a step named by a number, whose place JavaScript would move', async () => {
    await expect(commit(db, { 0: db.delete(rateLimits).where(sql`0`) })).rejects.toThrow(/needs a name/)
  })

  test('refuses a statement with placeholders that was not prepared', async () => {
    const unbound = db.delete(rateLimits).where(eq(rateLimits.key, sql.placeholder('key')))
    await expect(commit(db, { unbound })).rejects.toThrow(/prepareStep/)
  })

  test('wroteJustBefore holds only when the statement named just before wrote a row', async () => {
    const key = keyOf('guard')
    const taskId = `write-test-${crypto.randomUUID()}`
    const event = (type: string) =>
      insertIf(
        db,
        events,
        { topic: 'tasks', type, taskId, payload: {}, createdAt: new Date() },
        wroteJustBefore,
      )
    await commit(db, {
      missed: db.update(rateLimits).set({ count: 0 }).where(eq(rateLimits.key, key)),
      skipped: event('after-nothing'),
      opened: db.insert(rateLimits).values({ key, count: 1, resetAt: new Date(1_000) }),
      written: event('after-a-row'),
    })
    const logged = await db.select({ type: events.type }).from(events).where(eq(events.taskId, taskId))
    expect(logged).toEqual([{ type: 'after-a-row' }])
  })
})

describe('insertIf', () => {
  test('writes the typed values, and each column left out gets its default, as .values() would', async () => {
    const id = `write-test-${crypto.randomUUID()}`
    const before = Date.now()
    const { job } = await commit(db, {
      job: insertIf(db, jobs, { id, type: 'probe', payload: { n: 1 } }, sql`1`),
    })
    expect(job.rowsAffected).toBe(1)
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
    expect(row).toMatchObject({
      type: 'probe',
      payload: { n: 1 },
      status: 'pending',
      attempts: 0,
      lockedUntil: null,
    })
    expect(row?.runAt.getTime()).toBeGreaterThanOrEqual(before)
    expect(row?.createdAt.getTime()).toBeGreaterThanOrEqual(before)
  })

  test('writes nothing while its condition does not hold', async () => {
    const user = await createUser(db)
    const { job } = await commit(db, {
      job: insertIf(
        db,
        jobs,
        { id: `write-test-${crypto.randomUUID()}`, type: 'probe', payload: {} },
        sql`NOT EXISTS (SELECT 1 FROM users WHERE id = ${user.id})`,
      ),
    })
    expect(job.rowsAffected).toBe(0)
  })
})

describe('prepareStep', () => {
  const count = prepareStep((builder) =>
    insertIf(
      builder,
      rateLimits,
      { key: sql.placeholder('key'), count: sql.placeholder('count'), resetAt: sql.placeholder('resetAt') },
      sql`1`,
    ),
  )

  test('is built once and bound per call: the same text, the values of each call', async () => {
    const [first, second] = [keyOf('a'), keyOf('b')]
    const one = count({ key: first, count: 1, resetAt: 1_000 })
    const other = count({ key: second, count: 2, resetAt: 2_000 })
    expect(one.statement.sql).toBe(other.statement.sql)
    await commit(db, { one, other })
    expect((await windowOf(second))[0]).toMatchObject({ count: 2, resetAt: new Date(2_000) })
  })

  test('refuses a call that leaves a value out', () => {
    expect(() => count({ key: keyOf('c'), count: 1 })).toThrow(/No value for "resetAt"/)
  })

  test('refuses a default computed per row, which it would compute once', () => {
    const job = prepareStep((builder) =>
      insertIf(builder, jobs, { type: sql.placeholder('type'), payload: sql.placeholder('payload') }, sql`1`),
    )
    expect(() => job({ type: 'probe', payload: '{}' })).toThrow(/needs "id" given/)
  })
})

describe('a database busy past its timeout', () => {
  const notes = sqliteTable('notes', { body: text('body') })
  const retries = async () => (await dbBusyRetries.get()).values[0]?.value ?? 0

  /**
   * Runs `write` on a file of its own while another client holds its write lock, released once
   * the app has counted a retry: the lock outlasts the app's 5 s busy timeout.
   */
  async function whileLocked(write: (app: Database) => Promise<unknown>) {
    const folder = mkdtempSync(join(tmpdir(), 'threadwork-busy-'))
    const path = join(folder, 'busy.db')
    const app = openDatabase({ url: `file:${path}` })
    const other = createClient({ url: `file:${path}` })
    try {
      await app.$client.execute('CREATE TABLE notes (body TEXT)')
      const before = await retries()
      const holding = await other.transaction('write')
      const writing = write(app)
      await vi.waitFor(async () => expect(await retries()).toBeGreaterThan(before), {
        timeout: 20_000,
        interval: 50,
      })
      await holding.commit()
      await writing
      return await app.select().from(notes)
    } finally {
      other.close()
      app.$client.close()
      rmSync(folder, { recursive: true, force: true })
    }
  }

  test('the commit is sent again, counted in threadwork_db_busy_retries_total, and lands once', async () => {
    const written = await whileLocked(async (app) => {
      const { note } = await commit(app, { note: app.insert(notes).values({ body: 'late' }) })
      expect(note.rowsAffected).toBe(1)
    })
    expect(written).toEqual([{ body: 'late' }])
  }, 30_000)

  test('a transaction that reads before it writes runs again from its read, and lands once', async () => {
    const written = await whileLocked((app) =>
      commitAfterReading(app, async (tx) => {
        const earlier = await tx.select().from(notes)
        await tx.insert(notes).values({ body: `after ${earlier.length}` })
      }),
    )
    expect(written).toEqual([{ body: 'after 0' }])
  }, 30_000)
})
