import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events, rateLimits, sessions } from '~/db/schema'
import { appendEvent } from '~/events/log.server'
import { createUser } from '../../tests/helpers/factories'
import { pruneStaleRows } from './housekeeping.server'
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
