import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { INVALID_CSRF_MESSAGE } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { COMMENT_NOT_FOUND, NOT_AUTHOR } from '~/services/comment-views.server'
import { NOTIFICATION_NOT_FOUND } from '~/services/notifications.server'
import { TASK_NOT_FOUND } from '~/services/tasks/rule.server'
import { anonymousBrowser, signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createTask, createUser, shareTask } from '../helpers/factories'
import { type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * comments.* and task.getTaskUsers from the outside (docs/product-rules.md §5): `@orpc/client`'s RPCLink,
 * unchanged, over real HTTP, with the session cookie and the CSRF header a page sends. The rule
 * matrix lives in app/services/comments.server.test.ts; here the wire shapes, the codes and a
 * sample of refusals as a client sees them.
 */

const db = database()

let server: RpcServer
type Person = 'owner' | 'shared' | 'stranger'
const people = {} as Record<Person, Awaited<ReturnType<typeof createUser>>>
const browsers = {} as Record<Person | 'anonymous', TestBrowser>
let taskId: string
let publicTaskId: string

beforeAll(async () => {
  server = await startRpcServer()
  people.owner = await createUser(db, { name: 'Ada Owner' })
  people.shared = await createUser(db, { name: 'Grace Shared' })
  people.stranger = await createUser(db, { name: 'Eve Stranger' })
  for (const person of Object.keys(people) as Person[]) {
    browsers[person] = await signedInBrowser(db, people[person].id)
  }
  browsers.anonymous = anonymousBrowser()
  taskId = (await createTask(db, { userId: people.owner.id })).id
  await shareTask(db, taskId, [people.shared.email])
  publicTaskId = (await createTask(db, { userId: people.owner.id, isPublic: true })).id
})

afterAll(() => server.close())

function clientOf(who: Person | 'anonymous', options: { withCsrf?: boolean; method?: 'GET' | 'POST' } = {}) {
  return server.clientAs(browsers[who], options)
}

async function rejection(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    return error as { code: string; status: number; message: string }
  }
  throw new Error('expected the call to be refused')
}

describe('the conversation over RPC', () => {
  test('add, list (by GET), react, edit, delete — in the wire shapes the original clients read', async () => {
    const owner = clientOf('owner')
    const added = await owner.comments.addComment({
      taskId,
      content: '@Grace Shared have a look',
      mentions: [people.shared.email],
    })
    expect(added).toMatchObject({
      taskId,
      userId: people.owner.id,
      userName: 'Ada Owner',
      content: '@Grace Shared have a look',
      parentCommentId: null,
      reactions: '[]',
      notified: 1,
    })
    expect(typeof added.createdAt).toBe('string')

    const reply = await clientOf('shared').comments.addComment({
      taskId,
      content: 'On it',
      mentions: [],
      parentCommentId: added.id,
    })
    expect(reply.parentCommentId).toBe(added.id)

    const reacted = await clientOf('shared').comments.addReaction({
      commentId: added.id,
      reactionType: 'heart',
    })
    expect(JSON.parse(reacted.reactions)).toEqual([{ type: 'heart', userId: people.shared.id }])

    const listed = await clientOf('owner', { method: 'GET' }).comments.getComments({ taskId })
    expect(listed.map((c) => [c.content, c.parentCommentId])).toEqual([
      ['@Grace Shared have a look', null],
      ['On it', added.id],
    ])
    expect(server.requests.at(-1)?.method).toBe('GET')

    const edited = await owner.comments.updateComment({ commentId: added.id, content: 'Edited text' })
    expect(edited).toMatchObject({ content: 'Edited text', editedAt: expect.any(String) })

    expect(await clientOf('shared').comments.deleteComment({ commentId: reply.id })).toEqual({
      success: true,
    })
  })

  test('mentionable users by GET, as clients read them: id, name, e-mail, image', async () => {
    const users = await clientOf('owner', { method: 'GET' }).task.getTaskUsers({ taskId })
    expect(users).toEqual([
      { id: people.shared.id, name: 'Grace Shared', email: people.shared.email, image: null },
    ])
    expect(await clientOf('stranger', { method: 'GET' }).task.getTaskUsers({ taskId: publicTaskId })).toEqual(
      [],
    )
  })

  test('mention notifications: listed for the recipient, read only by them', async () => {
    await clientOf('owner').comments.addComment({ taskId, content: '@Grace Shared ping', mentions: [] })
    const [notification] = await clientOf('shared', { method: 'GET' }).comments.getMentionNotifications()
    expect(notification).toMatchObject({
      taskId,
      type: 'mention',
      isRead: false,
      fromUserName: 'Ada Owner',
      content: '@Grace Shared ping',
    })
    if (!notification) throw new Error('expected a notification')
    const refused = await rejection(
      clientOf('stranger').comments.markNotificationAsRead({ notificationId: notification.id }),
    )
    expect(refused).toMatchObject({ code: 'NOT_FOUND', status: 404, message: NOTIFICATION_NOT_FOUND })
    expect(
      await clientOf('shared').comments.markNotificationAsRead({ notificationId: notification.id }),
    ).toEqual({
      success: true,
    })
    const left = await clientOf('shared').comments.getMentionNotifications()
    expect(left.map((n) => n.id)).not.toContain(notification.id)
  })
})

describe('a mention after unsharing', () => {
  test('is gone from the list (text included) and cannot be marked, until the task is shared again', async () => {
    const owner = clientOf('owner')
    const task = await owner.task.create({ text: 'Briefly shared', sharedWith: [people.shared.email] })
    await owner.comments.addComment({
      taskId: task.id,
      content: '@Grace Shared the launch code',
      mentions: [],
    })
    const [notification] = (await clientOf('shared').comments.getMentionNotifications()).filter(
      (n) => n.taskId === task.id,
    )
    if (!notification) throw new Error('expected a notification')

    await owner.task.share({ taskId: task.id, emails: [] })
    const input = encodeURIComponent(JSON.stringify({ json: undefined }))
    const response = await fetch(`${server.origin}/api/rpc/comments/getMentionNotifications?data=${input}`, {
      headers: { cookie: browsers.shared.cookie },
    })
    expect(response.status).toBe(200)
    expect(await response.text()).not.toContain('the launch code')
    expect(
      await rejection(
        clientOf('shared').comments.markNotificationAsRead({ notificationId: notification.id }),
      ),
    ).toMatchObject({ code: 'NOT_FOUND', message: NOTIFICATION_NOT_FOUND })

    await owner.task.share({ taskId: task.id, emails: [people.shared.email] })
    const back = await clientOf('shared').comments.getMentionNotifications()
    expect(back.find((n) => n.id === notification.id)).toMatchObject({
      content: '@Grace Shared the launch code',
      isRead: false,
    })
  })
})

describe('refusals a client sees', () => {
  test("editing or deleting another person's comment is FORBIDDEN and changes nothing", async () => {
    const comment = await clientOf('shared').comments.addComment({ taskId, content: 'Mine', mentions: [] })
    expect(
      await rejection(clientOf('owner').comments.updateComment({ commentId: comment.id, content: 'x' })),
    ).toMatchObject({ code: 'FORBIDDEN', status: 403, message: NOT_AUTHOR })
    expect(
      await rejection(clientOf('owner').comments.deleteComment({ commentId: comment.id })),
    ).toMatchObject({
      code: 'FORBIDDEN',
    })
    const listed = await clientOf('owner').comments.getComments({ taskId })
    expect(listed.find((c) => c.id === comment.id)?.content).toBe('Mine')
  })

  test('a stranger gets NOT_FOUND for a private task and its comments', async () => {
    const comment = await clientOf('owner').comments.addComment({ taskId, content: 'Secret', mentions: [] })
    expect(await rejection(clientOf('stranger').comments.getComments({ taskId }))).toMatchObject({
      code: 'NOT_FOUND',
      message: TASK_NOT_FOUND,
    })
    expect(
      await rejection(
        clientOf('stranger').comments.addReaction({ commentId: comment.id, reactionType: 'fire' }),
      ),
    ).toMatchObject({ code: 'NOT_FOUND', message: COMMENT_NOT_FOUND })
  })

  test('blank content, unknown reactions and missing CSRF tokens are refused', async () => {
    expect(
      await rejection(clientOf('owner').comments.addComment({ taskId, content: '   ', mentions: [] })),
    ).toMatchObject({ code: 'BAD_REQUEST', status: 400 })
    expect(
      await rejection(
        clientOf('owner').comments.addReaction({ commentId: 'x', reactionType: 'party' as 'fire' }),
      ),
    ).toMatchObject({ code: 'BAD_REQUEST' })
    expect(
      await rejection(
        clientOf('owner', { withCsrf: false }).comments.addComment({ taskId, content: 'Hi', mentions: [] }),
      ),
    ).toMatchObject({ code: 'FORBIDDEN', message: INVALID_CSRF_MESSAGE })
  })

  test('an anonymous caller reads a public discussion but may not post (401)', async () => {
    expect(Array.isArray(await clientOf('anonymous').comments.getComments({ taskId: publicTaskId }))).toBe(
      true,
    )
    expect(
      await rejection(
        clientOf('anonymous').comments.addComment({ taskId: publicTaskId, content: 'Hi', mentions: [] }),
      ),
    ).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    expect(await rejection(clientOf('anonymous').comments.getMentionNotifications())).toMatchObject({
      code: 'UNAUTHORIZED',
    })
  })
})
