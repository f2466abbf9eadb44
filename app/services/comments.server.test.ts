import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { commentReactions, commentRevisions, comments, events, notifications, rateLimits } from '~/db/schema'
import {
  createUser,
  createComment as insertComment,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../tests/helpers/factories'
import { toggleReaction } from './comment-reactions.server'
import { CommentEditSchema, NewCommentSchema } from './comment-schemas'
import {
  type Author,
  COMMENT_NOT_FOUND,
  listComments,
  NOT_AUTHOR,
  openDiscussion,
} from './comment-views.server'
import { addComment, COMMENT_RATE_LIMIT, deleteComment, updateComment } from './comments.server'
import { Forbidden, NotFound, RateLimited } from './errors'
import { mentionableUsers } from './mentions.server'
import {
  listUnreadMentions,
  markNotificationRead,
  markTaskMentionsRead,
  NOTIFICATION_NOT_FOUND,
} from './notifications.server'
import { updateTask } from './tasks/writes.server'

/**
 * The comments, mentions and notifications services: who may read, write, mention and change
 * what, and what each change leaves in the rows and the event log. The world: Ada owns a private
 * task shared with Grace and Alan; Eve is a stranger; Ada also owns a public task.
 */

const db = database()

type UserRow = Awaited<ReturnType<typeof createUser>>

function actorOf(user: UserRow): Author {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    image: user.image,
  }
}

let ada: UserRow
let grace: UserRow
let alan: UserRow
let eve: UserRow
let privateTaskId: string
let publicTaskId: string

beforeAll(async () => {
  ada = await createUser(db, { name: 'Ada Lovelace', email: 'ada@example.test' })
  grace = await createUser(db, { name: 'Grace Hopper', email: 'grace@example.test' })
  alan = await createUser(db, { name: 'Alan Turing', email: 'alan@example.test' })
  eve = await createUser(db, { name: 'Eve', email: 'eve@example.test' })
  privateTaskId = (await insertTask(db, { userId: ada.id, text: 'Ship the comments' })).id
  await insertShares(db, privateTaskId, [grace.email, alan.email])
  publicTaskId = (await insertTask(db, { userId: ada.id, text: 'Public roadmap', isPublic: true })).id
  await insertShares(db, publicTaskId, [grace.email])
})

function post(actor: UserRow, taskId: string, content: string, extra: Record<string, unknown> = {}) {
  return addComment(db, actorOf(actor), NewCommentSchema.parse({ taskId, content, ...extra }))
}

async function unreadOf(user: UserRow) {
  return listUnreadMentions(db, actorOf(user))
}

describe('who may be mentioned (task.getTaskUsers)', () => {
  const names = async (viewer: UserRow | null, taskId: string) =>
    (await mentionableUsers(db, viewer ? actorOf(viewer) : null, taskId)).map((user) => user.name).sort()

  test.each([
    ['the owner', () => ada, () => privateTaskId, ['Alan Turing', 'Grace Hopper']],
    ['a shared user (only the owner)', () => grace, () => privateTaskId, ['Ada Lovelace']],
    ['the owner of a public task (none)', () => ada, () => publicTaskId, []],
    ['a shared user of a public task (none)', () => grace, () => publicTaskId, []],
    ['a stranger on a public task (none)', () => eve, () => publicTaskId, []],
    ['a visitor on a public task (none)', () => null, () => publicTaskId, []],
  ])('%s', async (_case, viewer, taskId, expected) => {
    expect(await names(viewer(), taskId())).toEqual(expected)
  })

  test('carries id, name, e-mail and image', async () => {
    const [user] = await mentionableUsers(db, actorOf(grace), privateTaskId)
    expect(user).toEqual({ id: ada.id, name: 'Ada Lovelace', email: ada.email, image: null })
  })

  test('a stranger is told the private task does not exist', async () => {
    await expect(mentionableUsers(db, actorOf(eve), privateTaskId)).rejects.toThrow(NotFound)
  })

  test('a shared address whose owner has not verified it is not mentionable', async () => {
    const unverified = await createUser(db, { name: 'Una Verified', emailVerifiedAt: null })
    const taskId = (await insertTask(db, { userId: ada.id })).id
    await insertShares(db, taskId, [unverified.email, grace.email])
    expect((await mentionableUsers(db, actorOf(ada), taskId)).map((user) => user.name)).toEqual([
      'Grace Hopper',
    ])
  })
})

describe('posting', () => {
  test('stores the trimmed text, appends comment-added, and lists it with its author', async () => {
    const { comment, notified } = await post(grace, privateTaskId, '   Looks good to me   ')
    expect(comment).toMatchObject({
      taskId: privateTaskId,
      userId: grace.id,
      userName: 'Grace Hopper',
      content: 'Looks good to me',
      parentCommentId: null,
      reactions: '[]',
      isDeleted: false,
      editedAt: null,
    })
    expect(notified).toBe(0)
    const listed = await listComments(db, actorOf(ada), privateTaskId)
    expect(listed.map((c) => c.id)).toContain(comment.id)
    const [event] = await db.select().from(events).where(eq(events.type, 'comment-added')).limit(1)
    expect(event).toMatchObject({ topic: 'comments', taskId: privateTaskId })
  })

  test('what posting answers is the comment exactly as the discussion then lists it', async () => {
    const pictured = await createUser(db, { name: 'Pia Pictured', image: 'https://example.test/pia.png' })
    const taskId = (await insertTask(db, { userId: pictured.id })).id
    const { comment: root } = await post(pictured, taskId, '  First words  ')
    const { comment: reply } = await post(pictured, taskId, 'A reply', { parentCommentId: root.id })
    expect(await listComments(db, actorOf(pictured), taskId)).toEqual([root, reply])
    expect(root.userImage).toBe('https://example.test/pia.png')
  })

  test('blank text and text over 5,000 characters are refused by the shared schema', () => {
    expect(NewCommentSchema.safeParse({ taskId: 't', content: '   ' }).success).toBe(false)
    expect(NewCommentSchema.safeParse({ taskId: 't', content: 'x'.repeat(5001) }).success).toBe(false)
    expect(NewCommentSchema.safeParse({ taskId: 't', content: 'x'.repeat(5000) }).success).toBe(true)
    expect(CommentEditSchema.safeParse({ commentId: 'c', content: '\n\t ' }).success).toBe(false)
  })

  test('a stranger cannot comment on a private task, and a visitor reads a public one', async () => {
    await expect(post(eve, privateTaskId, 'Hello?')).rejects.toThrow(NotFound)
    await expect(listComments(db, actorOf(eve), privateTaskId)).rejects.toThrow(NotFound)
    const { comment } = await post(eve, publicTaskId, 'Nice roadmap')
    expect((await listComments(db, null, publicTaskId)).map((c) => c.id)).toContain(comment.id)
  })

  test('a reply joins the thread of its parent, and a reply to a reply stays in that thread', async () => {
    const { comment: root } = await post(ada, privateTaskId, 'Thread root')
    const { comment: reply } = await post(grace, privateTaskId, 'First reply', { parentCommentId: root.id })
    const { comment: nested } = await post(alan, privateTaskId, 'Reply to the reply', {
      parentCommentId: reply.id,
    })
    expect(reply.parentCommentId).toBe(root.id)
    expect(nested.parentCommentId).toBe(root.id)
  })

  test('a reply to a comment of another task is refused', async () => {
    const { comment: elsewhere } = await post(ada, publicTaskId, 'On the public task')
    await expect(post(ada, privateTaskId, 'Wrong thread', { parentCommentId: elsewhere.id })).rejects.toThrow(
      COMMENT_NOT_FOUND,
    )
  })

  test('posting is rate-limited per person', async () => {
    const chatty = await createUser(db)
    const taskId = (await insertTask(db, { userId: chatty.id })).id
    for (let i = 0; i < COMMENT_RATE_LIMIT.limit; i += 1) await post(chatty, taskId, `Message ${i}`)
    await expect(post(chatty, taskId, 'One too many')).rejects.toThrow(RateLimited)
    expect((await listComments(db, actorOf(chatty), taskId)).length).toBe(COMMENT_RATE_LIMIT.limit)
  })

  test('a comment is one commit: a failure in its mention leaves no comment, event, count or index row', async () => {
    const writer = await createUser(db, { name: 'Rita Rollback' })
    const taskId = (await insertTask(db, { userId: ada.id })).id
    await insertShares(db, taskId, [writer.email])
    // The mention's notification comes after the comment, its event, its search row and the count.
    await db.run(
      sql`CREATE TRIGGER refuse_notifications BEFORE INSERT ON notifications BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    )
    try {
      await expect(post(writer, taskId, '@Ada Lovelace zanzibarish')).rejects.toThrow(/refused/)
    } finally {
      await db.run(sql`DROP TRIGGER refuse_notifications`)
    }
    const [indexed] = await db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM comments_search WHERE comments_search MATCH 'zanzibarish'`,
    )
    expect({
      comments: await db.$count(comments, eq(comments.taskId, taskId)),
      events: await db.$count(events, eq(events.taskId, taskId)),
      notifications: await db.$count(notifications, eq(notifications.taskId, taskId)),
      counts: await db.$count(rateLimits, eq(rateLimits.key, `comment:user:${writer.id}`)),
      indexed: indexed?.n,
    }).toEqual({ comments: 0, events: 0, notifications: 0, counts: 0, indexed: 0 })
    // The same comment without the failure writes them all.
    await post(writer, taskId, '@Ada Lovelace zanzibarish')
    expect(await db.$count(notifications, eq(notifications.taskId, taskId))).toBe(1)
  })
})

describe('mentions are enforced by the server', () => {
  test('the owner mentioning a shared user notifies them, once, with the sender and the text', async () => {
    const content = '@Grace Hopper can you review? @grace also see this'
    const { comment, notified } = await post(ada, privateTaskId, content, {
      mentions: [grace.email, grace.email],
    })
    expect(notified).toBe(1)
    const mine = (await unreadOf(grace)).filter((n) => n.commentId === comment.id)
    expect(mine).toEqual([
      expect.objectContaining({
        taskId: privateTaskId,
        type: 'mention',
        isRead: false,
        fromUserName: 'Ada Lovelace',
        content,
      }),
    ])
    const mentionEvents = await db
      .select()
      .from(events)
      .where(and(eq(events.type, 'mention'), eq(events.taskId, privateTaskId)))
    expect(mentionEvents.some((event) => event.payload.commentId === comment.id)).toBe(true)
  })

  test('a shared user may mention the owner but not another shared user, whatever the client sends', async () => {
    const { comment, notified } = await post(
      grace,
      privateTaskId,
      '@Ada Lovelace and @Alan Turing, thoughts?',
      {
        mentions: [ada.email, alan.email, eve.email],
      },
    )
    expect(notified).toBe(1)
    const rows = await db.select().from(notifications).where(eq(notifications.commentId, comment.id))
    expect(rows.map((row) => row.recipientId)).toEqual([ada.id])
  })

  test('a public task allows no mentions at all', async () => {
    const { notified } = await post(ada, publicTaskId, '@Grace Hopper look', { mentions: [grace.email] })
    expect(notified).toBe(0)
  })

  test('the author never notifies themselves', async () => {
    const { notified } = await post(ada, privateTaskId, '@Ada Lovelace note to self', {
      mentions: [ada.email],
    })
    expect(notified).toBe(0)
  })

  test('an edit notifies only the people it mentions for the first time', async () => {
    const { comment } = await post(ada, privateTaskId, '@Grace Hopper first')
    const before = await db.select().from(notifications).where(eq(notifications.commentId, comment.id))
    await updateComment(db, actorOf(ada), comment.id, '@Grace Hopper and @Alan Turing now')
    const after = await db.select().from(notifications).where(eq(notifications.commentId, comment.id))
    expect(before.map((n) => n.recipientId)).toEqual([grace.id])
    expect(after.map((n) => n.recipientId).sort()).toEqual([alan.id, grace.id].sort())
  })
})

describe('editing and deleting', () => {
  test('the author edits: the comment is marked edited and the earlier version is kept', async () => {
    const { comment } = await post(grace, privateTaskId, 'Frist draft')
    const edited = await updateComment(db, actorOf(grace), comment.id, 'First draft')
    expect(edited).toMatchObject({ content: 'First draft', editedAt: expect.any(String) })
    expect(edited.revisions.map((r) => r.content)).toEqual(['Frist draft'])
    const updates = await db
      .select()
      .from(events)
      .where(and(eq(events.type, 'comment-updated'), eq(events.taskId, privateTaskId)))
    expect(updates.map((event) => event.payload.commentId)).toContain(comment.id)
  })

  test('an edit that changes nothing keeps no revision', async () => {
    const { comment } = await post(grace, privateTaskId, 'Same')
    const same = await updateComment(db, actorOf(grace), comment.id, 'Same')
    expect(same.editedAt).toBeNull()
    expect(
      await db.select().from(commentRevisions).where(eq(commentRevisions.commentId, comment.id)),
    ).toEqual([])
  })

  test("another person's comment cannot be edited or deleted, even by the task's owner", async () => {
    const { comment } = await post(grace, privateTaskId, 'Mine')
    await expect(updateComment(db, actorOf(ada), comment.id, 'Hijacked')).rejects.toThrow(Forbidden)
    await expect(updateComment(db, actorOf(ada), comment.id, 'Hijacked')).rejects.toThrow(NOT_AUTHOR)
    await expect(deleteComment(db, actorOf(alan), comment.id)).rejects.toThrow(Forbidden)
    const [row] = await db.select().from(comments).where(eq(comments.id, comment.id))
    expect(row?.content).toBe('Mine')
  })

  test('a stranger is told the comment of a private task does not exist', async () => {
    const { comment } = await post(grace, privateTaskId, 'Private words')
    await expect(updateComment(db, actorOf(eve), comment.id, 'x')).rejects.toThrow(NotFound)
    await expect(toggleReaction(db, actorOf(eve), comment.id, 'heart')).rejects.toThrow(COMMENT_NOT_FOUND)
  })

  test('deleting a comment without replies removes it', async () => {
    const { comment } = await post(grace, privateTaskId, 'Oops')
    await deleteComment(db, actorOf(grace), comment.id)
    expect(await db.select().from(comments).where(eq(comments.id, comment.id))).toEqual([])
  })

  test('deleting a comment with replies leaves a placeholder, and the last reply takes it along', async () => {
    const { comment: parent } = await post(grace, privateTaskId, 'Parent with a secret')
    await toggleReaction(db, actorOf(ada), parent.id, 'heart')
    const { comment: reply } = await post(ada, privateTaskId, 'A reply', { parentCommentId: parent.id })
    await deleteComment(db, actorOf(grace), parent.id)

    const listed = await listComments(db, actorOf(ada), privateTaskId)
    const placeholder = listed.find((c) => c.id === parent.id)
    expect(placeholder).toMatchObject({ isDeleted: true, content: '', reactions: '[]' })
    expect(listed.find((c) => c.id === reply.id)?.parentCommentId).toBe(parent.id)
    await expect(updateComment(db, actorOf(grace), parent.id, 'Back')).rejects.toThrow(NotFound)

    await deleteComment(db, actorOf(ada), reply.id)
    expect(await db.select().from(comments).where(eq(comments.id, parent.id))).toEqual([])
    const deletions = await db.select().from(events).where(eq(events.type, 'comment-deleted'))
    expect(deletions.map((event) => event.payload.commentId)).toEqual(
      expect.arrayContaining([parent.id, reply.id]),
    )
  })
})

describe('reactions', () => {
  const countOf = async (commentId: string) =>
    (await db.select().from(commentReactions).where(eq(commentReactions.commentId, commentId))).length

  test('a click toggles the reaction on and off, as JSON text of {type, userId}', async () => {
    const { comment } = await post(ada, privateTaskId, 'React to me')
    const on = await toggleReaction(db, actorOf(grace), comment.id, 'fire')
    expect(on.isActive).toBe(true)
    expect(JSON.parse(on.reactions)).toEqual([{ type: 'fire', userId: grace.id }])
    const off = await toggleReaction(db, actorOf(grace), comment.id, 'fire')
    expect(off.isActive).toBe(false)
    expect(JSON.parse(off.reactions)).toEqual([])
  })

  test('many people reacting at once end with one reaction each', async () => {
    const { comment } = await post(ada, publicTaskId, 'Everyone react')
    const crowd = await Promise.all(Array.from({ length: 12 }, () => createUser(db)))
    await Promise.all(crowd.map((user) => toggleReaction(db, actorOf(user), comment.id, 'thumbsup')))
    expect(await countOf(comment.id)).toBe(12)
  })

  test('the same person toggling twice at once can never count twice', async () => {
    const { comment } = await post(ada, publicTaskId, 'Double click')
    await Promise.all([
      toggleReaction(db, actorOf(grace), comment.id, 'check'),
      toggleReaction(db, actorOf(grace), comment.id, 'check'),
      toggleReaction(db, actorOf(grace), comment.id, 'check'),
    ])
    expect(await countOf(comment.id)).toBeLessThanOrEqual(1)
  })
})

describe('notifications', () => {
  test("marking another person's notification is refused as not found", async () => {
    const { comment } = await post(ada, privateTaskId, '@Grace Hopper ping')
    const [notification] = (await unreadOf(grace)).filter((n) => n.commentId === comment.id)
    if (!notification) throw new Error('expected a notification')
    await expect(markNotificationRead(db, actorOf(alan), notification.id)).rejects.toThrow(
      NOTIFICATION_NOT_FOUND,
    )
    await expect(markNotificationRead(db, actorOf(grace), 'no-such-id')).rejects.toThrow(NotFound)
    expect((await unreadOf(grace)).map((n) => n.id)).toContain(notification.id)
    await markNotificationRead(db, actorOf(grace), notification.id)
    expect((await unreadOf(grace)).map((n) => n.id)).not.toContain(notification.id)
  })

  test("opening a task reads that task's mentions, and only the viewer's", async () => {
    const otherTaskId = (await insertTask(db, { userId: ada.id })).id
    await insertShares(db, otherTaskId, [grace.email])
    await post(ada, privateTaskId, '@Grace Hopper here')
    await post(ada, otherTaskId, '@Grace Hopper there')
    await post(grace, privateTaskId, '@Ada Lovelace back to you')
    await markTaskMentionsRead(db, grace.id, privateTaskId)
    const graceTasks = new Set((await unreadOf(grace)).map((n) => n.taskId))
    expect(graceTasks.has(privateTaskId)).toBe(false)
    expect(graceTasks.has(otherTaskId)).toBe(true)
    expect((await unreadOf(ada)).some((n) => n.taskId === privateTaskId)).toBe(true)
  })
})

describe('notifications follow their task', () => {
  /** A task of Ada's shared with Grace, where Ada mentions her; returns the notification. */
  async function mentionedOnSharedTask() {
    const taskId = (await insertTask(db, { userId: ada.id, text: 'For Grace, for now' })).id
    await insertShares(db, taskId, [grace.email])
    const { comment } = await post(ada, taskId, '@Grace Hopper the secret plan')
    const [notification] = (await unreadOf(grace)).filter((n) => n.commentId === comment.id)
    if (!notification) throw new Error('expected a notification')
    return { taskId, notification }
  }

  async function rowOf(id: string) {
    const [row] = await db.select().from(notifications).where(eq(notifications.id, id))
    return row
  }

  test('unshared: the mention and its text are gone for the recipient; shared again, back unread', async () => {
    const { taskId, notification } = await mentionedOnSharedTask()
    await updateTask(db, actorOf(ada), taskId, { sharedWith: [] })

    const unread = await unreadOf(grace)
    expect(unread.map((n) => n.id)).not.toContain(notification.id)
    expect(JSON.stringify(unread)).not.toContain('the secret plan')

    // Marking it read is refused as for any notification that is not theirs, and changes nothing.
    await expect(markNotificationRead(db, actorOf(grace), notification.id)).rejects.toThrow(
      NOTIFICATION_NOT_FOUND,
    )
    expect(await rowOf(notification.id)).toMatchObject({ isRead: false })
    // Opening the task is refused before anything is read or marked.
    await expect(openDiscussion(db, actorOf(grace), taskId)).rejects.toThrow(NotFound)
    expect(await rowOf(notification.id)).toMatchObject({ isRead: false })

    await updateTask(db, actorOf(ada), taskId, { sharedWith: [grace.email] })
    expect((await unreadOf(grace)).find((n) => n.id === notification.id)).toMatchObject({
      content: '@Grace Hopper the secret plan',
      isRead: false,
    })
  })

  test('a task made public shows its mentions again to anyone it mentioned', async () => {
    const { taskId, notification } = await mentionedOnSharedTask()
    await updateTask(db, actorOf(ada), taskId, { sharedWith: [] })
    expect((await unreadOf(grace)).map((n) => n.id)).not.toContain(notification.id)
    await updateTask(db, actorOf(ada), taskId, { isPublic: true })
    expect((await unreadOf(grace)).map((n) => n.id)).toContain(notification.id)
  })

  test('the recipient losing the verified address hides it too', async () => {
    const { notification } = await mentionedOnSharedTask()
    const unproven = { ...actorOf(grace), emailVerified: false }
    expect((await listUnreadMentions(db, unproven)).map((n) => n.id)).not.toContain(notification.id)
    await expect(markNotificationRead(db, unproven, notification.id)).rejects.toThrow(NotFound)
  })
})

describe('the list', () => {
  test('one comment list carries names, replies and reactions in creation order', async () => {
    const owner = await createUser(db, { name: 'Owner' })
    const taskId = (await insertTask(db, { userId: owner.id })).id
    const first = await insertComment(db, {
      taskId,
      userId: owner.id,
      content: 'one',
      createdAt: new Date(1000),
    })
    await insertComment(db, {
      taskId,
      userId: owner.id,
      content: 'two',
      parentCommentId: first.id,
      createdAt: new Date(2000),
    })
    await toggleReaction(db, actorOf(owner), first.id, 'heart')
    const listed = await listComments(db, actorOf(owner), taskId)
    expect(listed.map((c) => [c.content, c.parentCommentId, c.userName])).toEqual([
      ['one', null, 'Owner'],
      ['two', first.id, 'Owner'],
    ])
    expect(JSON.parse(listed[0]?.reactions ?? '')).toEqual([{ type: 'heart', userId: owner.id }])
  })
})
