import { createClient } from '@libsql/client'
import { eq, sql } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { emailOutbox, events, rateLimits, sessions } from '~/db/schema'
import { appendEvent } from '~/events/log.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { openScratchDatabase } from '../../tests/helpers/db'
import { createTask, createUser } from '../../tests/helpers/factories'
import { pruneStaleRows, runHousekeeping } from './housekeeping.server'
import { jobHandlers } from './job-handlers.server'
import { consumeRateLimit } from './rate-limit.server'
import { createSession } from './sessions.server'

const DAY = 24 * 60 * 60 * 1000

test('one pass drops old events, expired sessions and ended rate-limit windows, and nothing live', async () => {
  const db = database()
  const now = new Date('2030-03-01T12:00:00Z')
  const user = await createUser(db)

  const live = await createSession(db, user.id, {}, now)
  const expired = await createSession(db, user.id, {}, new Date(now.getTime() - 40 * DAY))

  const rule = { limit: 5, windowMs: 60_000, message: 'Slow down.' }
  await consumeRateLimit(db, 'housekeeping:ended', rule, now.getTime() - 2 * 60_000)
  await consumeRateLimit(db, 'housekeeping:open', rule, now.getTime())

  await appendEvent(db, { topic: 'tasks', type: 'task-created', taskId: 'old', payload: {} })
  await appendEvent(db, { topic: 'tasks', type: 'task-created', taskId: 'recent', payload: {} })
  await db
    .update(events)
    .set({ createdAt: new Date(now.getTime() - 25 * 60 * 60 * 1000) })
    .where(eq(events.taskId, 'old'))
  await db.update(events).set({ createdAt: now }).where(eq(events.taskId, 'recent'))

  expect(await pruneStaleRows(db, now)).toEqual({ events: 1 })

  const sessionIds = (await db.select({ id: sessions.id }).from(sessions)).map((row) => row.id)
  expect(sessionIds).toContain(live.id)
  expect(sessionIds).not.toContain(expired.id)
  const keys = (await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key)
  expect(keys).toContain('housekeeping:open')
  expect(keys).not.toContain('housekeeping:ended')
  const taskIds = await db
    .select({ taskId: events.taskId })
    .from(events)
    .where(sql`${events.taskId} in ('old', 'recent')`)
  expect(taskIds.map((row) => row.taskId)).toEqual(['recent'])
})

test('two workers booting on one fresh file wait out a third writer: both start-up passes complete, nothing is logged', async () => {
  const scratch = await openScratchDatabase()
  const workers = [openDatabase({ url: scratch.url }), openDatabase({ url: scratch.url })]
  const other = createClient({ url: scratch.url })
  const errors = vi.spyOn(console, 'error')
  try {
    await migrateDatabase(scratch.db)
    // 10:00 UTC on the day a task is due: the due-date reminders' first run has an e-mail to queue.
    const now = new Date('2030-06-10T10:00:00Z')
    const ada = await createUser(scratch.db, { timeZone: 'UTC' })
    await createTask(scratch.db, { userId: ada.id, dueDate: '2030-06-10' })

    // Held past the app's busy timeout: in this one process the waiting connection blocks the
    // thread, so the release runs only once that wait has given up.
    const holding = await other.transaction('write')
    setTimeout(() => void holding.commit(), 200)
    // What each worker does at boot: housekeeping's pass, then the job runner's first.
    await Promise.all(
      workers.map(async (db) => {
        await runHousekeeping(db, now)
        await createJobRunner({ db, handlers: jobHandlers, now: () => now.getTime() }).runDue()
      }),
    )

    expect(errors).not.toHaveBeenCalled()
    expect(await scratch.db.select().from(emailOutbox).where(eq(emailOutbox.to, ada.email))).toHaveLength(1)
  } finally {
    errors.mockRestore()
    other.close()
    for (const db of workers) db.$client.close()
    scratch.close()
  }
}, 60_000)
