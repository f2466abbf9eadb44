import type { Client } from '@libsql/client'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { type Database, database } from '~/db/client.server'
import { comments, events, jobs, notifications, rateLimits, taskShares } from '~/db/schema'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../tests/helpers/factories'
import { NewCommentSchema } from './comment-schemas'
import { addComment, COMMENT_RATE_LIMIT } from './comments.server'
import { RateLimited } from './errors'
import { MENTION_EMAIL_JOB } from './mention-emails.server'
import { toSessionUser } from './sessions.server'

/**
 * The comment rate limit is checked and counted inside the comment's own batch: one commit per
 * comment. These tests hold it to what that promises — the limit holds under concurrency, a
 * refused comment changes nothing at all, and an accepted one is written, announced and counted
 * by that one batch. They run on a file and, under `npm run test:sqld`, on a real libSQL server.
 */

const db = database()
const LIMIT = COMMENT_RATE_LIMIT.limit

type UserRow = Awaited<ReturnType<typeof createUser>>

/**
 * A task owned by a person who is away (no session, so each mention of them schedules an
 * e-mail), shared with the one who writes.
 */
async function world() {
  const owner = await createUser(db, { name: `Owner ${crypto.randomUUID().slice(0, 8)}` })
  const writer = await createUser(db)
  const taskId = (await insertTask(db, { userId: owner.id })).id
  await insertShares(db, taskId, [writer.email])
  return { owner, writer, taskId }
}

/** The database, with its client's batch (the one every commit goes through) replaced by `batch`. */
function withClientBatch(batch: Client['batch']): Database {
  const $client = Object.assign(Object.create(db.$client) as Client, { batch })
  return Object.assign(Object.create(db) as Database, { $client })
}

function post(writer: UserRow, taskId: string, content: string, mentions: string[] = []) {
  return addComment(db, toSessionUser(writer), NewCommentSchema.parse({ taskId, content, mentions }))
}

/** Every row a comment can leave behind, for one task, one author and one person it mentions. */
async function footprint(taskId: string, writer: UserRow, mentioned: UserRow) {
  const [window] = await db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `comment:user:${writer.id}`))
  const [job] = await db
    .select()
    .from(jobs)
    .where(eq(jobs.id, `${MENTION_EMAIL_JOB}:${mentioned.id}`))
  const rows = (query: { n: number }[]) => Number(query[0]?.n)
  const n = sql<number>`count(*)`
  return {
    comments: rows(await db.select({ n }).from(comments).where(eq(comments.taskId, taskId))),
    events: rows(await db.select({ n }).from(events).where(eq(events.taskId, taskId))),
    notifications: rows(
      await db.select({ n }).from(notifications).where(eq(notifications.recipientId, mentioned.id)),
    ),
    window: window ? { count: window.count, resetAt: window.resetAt.getTime() } : null,
    job: job ? { status: job.status, runAt: job.runAt.getTime(), updatedAt: job.updatedAt.getTime() } : null,
  }
}

describe('the comment rate limit, inside the comment batch', () => {
  test('past the limit, concurrent comments: exactly the limit are written, announced and notified', async () => {
    const { owner, writer, taskId } = await world()
    const outcomes = await Promise.allSettled(
      Array.from({ length: LIMIT + 8 }, (_, i) => post(writer, taskId, `@${owner.name} number ${i}`)),
    )
    const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled')
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))
    expect(accepted).toHaveLength(LIMIT)
    expect(refused).toHaveLength(8)
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(RateLimited)
      expect(reason).toMatchObject({ message: COMMENT_RATE_LIMIT.message, status: 429 })
    }
    const after = await footprint(taskId, writer, owner)
    expect(after).toMatchObject({ comments: LIMIT, notifications: LIMIT, window: { count: LIMIT } })
    // Each accepted comment: its comment-added event and the mention's event; nothing else.
    const logged = await db.select({ type: events.type }).from(events).where(eq(events.taskId, taskId))
    expect(logged.filter((event) => event.type === 'comment-added')).toHaveLength(LIMIT)
    expect(logged.filter((event) => event.type === 'mention')).toHaveLength(LIMIT)
    expect(logged).toHaveLength(2 * LIMIT)
  })

  test('a refused comment changes nothing: no row, event, notification, e-mail job or count', async () => {
    const { owner, writer, taskId } = await world()
    for (let i = 0; i < LIMIT; i += 1) await post(writer, taskId, `Message ${i}`)
    const before = await footprint(taskId, writer, owner)
    expect(before).toMatchObject({ notifications: 0, job: null, window: { count: LIMIT } })
    // It mentions the owner, who is away: accepted, it would notify them and schedule an e-mail.
    const error = await post(writer, taskId, `@${owner.name} one too many`, [owner.email]).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(RateLimited)
    expect(error).toMatchObject({ message: COMMENT_RATE_LIMIT.message, status: 429 })
    const { retryAfter } = error as RateLimited
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(COMMENT_RATE_LIMIT.windowMs / 1000)
    expect(await footprint(taskId, writer, owner)).toEqual(before)
  })

  test('an accepted comment mentioning someone away schedules their e-mail in the same batch', async () => {
    const { owner, writer, taskId } = await world()
    const { notified } = await post(writer, taskId, `@${owner.name} are you there?`, [owner.email])
    expect(notified).toBe(1)
    expect((await footprint(taskId, writer, owner)).job).toMatchObject({ status: 'pending' })
  })

  test('a window that ended starts again at one', async () => {
    const { writer, taskId } = await world()
    for (let i = 0; i < LIMIT; i += 1) await post(writer, taskId, `Message ${i}`)
    await expect(post(writer, taskId, 'Refused')).rejects.toBeInstanceOf(RateLimited)
    await db
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1) })
      .where(eq(rateLimits.key, `comment:user:${writer.id}`))
    await post(writer, taskId, 'A new minute')
    const after = await footprint(taskId, writer, writer)
    expect(after.comments).toBe(LIMIT + 1)
    expect(after.window?.count).toBe(1)
    expect(after.window?.resetAt).toBeGreaterThan(Date.now())
  })

  test('the limit is per person: another writer on the same task still comments', async () => {
    const { owner, writer, taskId } = await world()
    for (let i = 0; i < LIMIT; i += 1) await post(writer, taskId, `Message ${i}`)
    await expect(post(writer, taskId, 'Refused')).rejects.toBeInstanceOf(RateLimited)
    await expect(post(owner, taskId, 'The owner answers')).resolves.toMatchObject({ notified: 0 })
  })

  test('a comment on a task the writer cannot see is not found, and is not counted', async () => {
    const { writer } = await world()
    const stranger = await createUser(db)
    const hidden = (await insertTask(db, { userId: stranger.id })).id
    await expect(post(writer, hidden, 'Hello?')).rejects.toThrow('Task not found')
    expect((await footprint(hidden, writer, stranger)).window).toBeNull()
  })

  test('a share revoked as the batch goes out: not found, and not counted', async () => {
    const { owner, writer, taskId } = await world()
    const revokeFirst = withClientBatch(async (statements, mode) => {
      await db.delete(taskShares).where(eq(taskShares.taskId, taskId))
      return db.$client.batch(statements, mode)
    })
    await expect(
      addComment(revokeFirst, toSessionUser(writer), NewCommentSchema.parse({ taskId, content: 'Too late' })),
    ).rejects.toThrow('Task not found')
    expect(await footprint(taskId, writer, owner)).toMatchObject({ comments: 0, events: 0, window: null })
  })

  test('the comment, its event, its count, the notification and the e-mail job are one batch: no other write', async () => {
    const { owner, writer, taskId } = await world()
    const writes: string[] = []
    const watched = Object.assign(
      withClientBatch((statements, mode) => {
        writes.push(`batch of ${statements.length}`)
        return db.$client.batch(statements, mode)
      }),
      {
        batch: (() => {
          throw new Error('addComment sent a second kind of batch')
        }) as Database['batch'],
        transaction: (() => {
          throw new Error('addComment opened a transaction')
        }) as Database['transaction'],
        insert: () => {
          throw new Error('addComment wrote outside its batch')
        },
        update: () => {
          throw new Error('addComment wrote outside its batch')
        },
        delete: () => {
          throw new Error('addComment wrote outside its batch')
        },
      },
    )
    await addComment(
      watched,
      toSessionUser(writer),
      NewCommentSchema.parse({ taskId, content: `@${owner.name} one commit`, mentions: [owner.email] }),
    )
    // comment, comment-added, count, notification, mention event, e-mail job, window read back
    expect(writes).toEqual(['batch of 7'])
    expect(await footprint(taskId, writer, owner)).toMatchObject({
      comments: 1,
      events: 2,
      notifications: 1,
      window: { count: 1 },
      job: { status: 'pending' },
    })
  })
})
