import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { notifications, taskShares, tasks } from '~/db/schema'
import {
  createComment,
  createMentionNotification,
  createTask,
  createUser,
  shareTask,
} from '../../tests/helpers/factories'
import {
  countUnreadMentions,
  excerptOf,
  INBOX_EXCERPT_CHARACTERS,
  listInboxMentions,
  markAllMentionsRead,
} from './notifications.server'
import type { Actor } from './session-user'

/**
 * The inbox behind /notifications and the header's badge: a person's mentions, newest first,
 * only on tasks they may still see. The world: Ada owns a task shared with Grace; Grace is
 * mentioned there and elsewhere.
 */

const db = database()

type UserRow = Awaited<ReturnType<typeof createUser>>
const recipientOf = (user: UserRow): Actor => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerifiedAt !== null,
})

let ada: UserRow
let grace: UserRow
let taskId: string

beforeEach(async () => {
  ada = await createUser(db, { name: 'Ada' })
  grace = await createUser(db, { name: 'Grace' })
  taskId = (await createTask(db, { userId: ada.id, text: 'Plan the offsite' })).id
  await shareTask(db, taskId, [grace.email])
})

async function mention(overrides: Partial<typeof notifications.$inferInsert> = {}) {
  const comment = await createComment(db, { taskId, userId: ada.id, content: overrides.content ?? 'Hi' })
  return createMentionNotification(db, {
    recipientId: grace.id,
    taskId,
    commentId: comment.id,
    fromUserId: ada.id,
    ...overrides,
  })
}

describe('countUnreadMentions (the badge)', () => {
  test("counts the person's unread mentions, not read ones nor anyone else's", async () => {
    await mention()
    await mention()
    await mention({ isRead: true })
    await createMentionNotification(db, { recipientId: ada.id, taskId })

    expect(await countUnreadMentions(db, recipientOf(grace))).toBe(2)
    expect(await countUnreadMentions(db, recipientOf(ada))).toBe(1)
  })

  test('a mention on a task the person can no longer see stops counting, and counts again if shared again', async () => {
    await mention()
    await db.delete(taskShares).where(eq(taskShares.taskId, taskId))
    expect(await countUnreadMentions(db, recipientOf(grace))).toBe(0)

    await db.update(tasks).set({ isPublic: true }).where(eq(tasks.id, taskId))
    expect(await countUnreadMentions(db, recipientOf(grace))).toBe(1)
  })

  test('shares reach only a verified address', async () => {
    await mention()
    expect(await countUnreadMentions(db, { ...recipientOf(grace), emailVerified: false })).toBe(0)
  })
})

describe('listInboxMentions', () => {
  test('newest first, read and unread, with who wrote, the task and an excerpt', async () => {
    const older = await mention({ content: '@Grace the venue?', createdAt: new Date('2030-01-01T10:00:00Z') })
    const newer = await mention({
      content: '@Grace the menu?',
      isRead: true,
      createdAt: new Date('2030-01-01T11:00:00Z'),
    })

    expect(await listInboxMentions(db, recipientOf(grace))).toEqual([
      {
        id: newer.id,
        type: 'mention',
        taskId,
        taskText: 'Plan the offsite',
        fromUserName: 'Ada',
        excerpt: '@Grace the menu?',
        isRead: true,
        createdAt: '2030-01-01T11:00:00.000Z',
      },
      {
        id: older.id,
        type: 'mention',
        taskId,
        taskText: 'Plan the offsite',
        fromUserName: 'Ada',
        excerpt: '@Grace the venue?',
        isRead: false,
        createdAt: '2030-01-01T10:00:00.000Z',
      },
    ])
    expect(await listInboxMentions(db, recipientOf(ada))).toEqual([])
  })

  test('leaves out mentions on tasks the person can no longer see', async () => {
    await mention({ content: 'kept secret after unsharing' })
    const elsewhere = await createTask(db, { text: 'Public notes', isPublic: true })
    await createMentionNotification(db, { recipientId: grace.id, taskId: elsewhere.id, content: 'on public' })
    await db.delete(taskShares).where(eq(taskShares.taskId, taskId))

    const inbox = await listInboxMentions(db, recipientOf(grace))
    expect(inbox.map((item) => item.excerpt)).toEqual(['on public'])
    expect(JSON.stringify(inbox)).not.toContain('kept secret')
  })

  test('a sender whose account is gone shows as Someone', async () => {
    await createMentionNotification(db, { recipientId: grace.id, taskId, fromUserId: null })
    expect((await listInboxMentions(db, recipientOf(grace)))[0]?.fromUserName).toBe('Someone')
  })

  test('excerpts are cut by code points, never halving an emoji', () => {
    const long = `${'a'.repeat(INBOX_EXCERPT_CHARACTERS - 1)}🎉 and more`
    expect(excerptOf(long)).toBe(`${'a'.repeat(INBOX_EXCERPT_CHARACTERS - 1)}🎉…`)
    expect(excerptOf('  short  ')).toBe('short')
  })
})

describe('markAllMentionsRead', () => {
  test('marks what the person could have seen: their unread mentions up to the listing time', async () => {
    const listedAt = new Date('2030-01-01T12:00:00Z')
    const seen = await mention({ createdAt: new Date('2030-01-01T11:59:00Z') })
    const arrivedLater = await mention({ createdAt: new Date('2030-01-01T12:00:01Z') })
    const adas = await createMentionNotification(db, { recipientId: ada.id, taskId })

    expect(await markAllMentionsRead(db, recipientOf(grace), listedAt)).toBe(1)

    const isRead = async (id: string) =>
      (await db.select().from(notifications).where(eq(notifications.id, id)))[0]?.isRead
    expect(await isRead(seen.id)).toBe(true)
    expect(await isRead(arrivedLater.id)).toBe(false)
    expect(await isRead(adas.id)).toBe(false)
    expect(await countUnreadMentions(db, recipientOf(grace))).toBe(1)
  })
})
