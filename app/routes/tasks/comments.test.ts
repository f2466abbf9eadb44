import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { commentReactions, comments, notifications } from '~/db/schema'
import { COMMENT_RATE_LIMIT } from '~/services/comments.server'
import { readToast } from '~/toast.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createComment, createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { buildRequest, callAction, cookieHeaderFrom } from '../../../tests/helpers/route'
import { action, addedToast, DELETED_TOAST, FAILURE_TOASTS, loader, UPDATED_TOAST } from './comments'

/**
 * /task/comments: the forms of the comments section as a browser posts them — with or without
 * JavaScript the same request — and what each leaves: rows, the redirect back to the page the
 * modal is open on, and the toast of docs/product-rules.md §4.
 */

const db = database()

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

async function world() {
  const owner = await createUser(db, { name: 'Ada Owner' })
  const grace = await createUser(db, { name: 'Grace Hopper' })
  const alan = await createUser(db, { name: 'Alan Turing' })
  const task = await createTask(db, { userId: owner.id })
  await shareTask(db, task.id, [grace.email, alan.email])
  const as = async (user: { id: string }) => {
    const browser = await signedInBrowser(db, user.id)
    return (fields: Record<string, string | string[]>) =>
      callAction(action, {
        url: '/task/comments',
        headers: { Cookie: browser.cookie },
        form: browser.form({ redirectTo: `/task?task=${task.id}&view=reply&comment=x`, ...fields }),
      })
  }
  return { owner, grace, alan, task, as }
}

describe('adding', () => {
  test('posts, returns to the page without the reply view, and says how many people were notified', async () => {
    const { owner, grace, alan, task, as } = await world()
    const post = await as(owner)
    const result = await post({
      intent: 'add',
      taskId: task.id,
      content: '@Grace Hopper and @Alan Turing, please review',
    })
    expect(result).toMatchObject({ status: 302, location: `/task?task=${task.id}` })
    expect(result.headers.get('X-Remix-Replace')).toBe('true')
    expect((await toastOf(result.headers))?.title).toBe('Comment added and 2 people notified! 📢')
    const rows = await db.select().from(notifications).where(eq(notifications.taskId, task.id))
    expect(rows.map((row) => row.recipientId).sort()).toEqual([alan.id, grace.id].sort())
  })

  test('the toast texts, word for word', () => {
    expect(addedToast(0)).toBe('Comment added successfully! 💬')
    expect(addedToast(1)).toBe('Comment added and 1 person notified! 📢')
    expect(addedToast(3)).toBe('Comment added and 3 people notified! 📢')
  })

  test('a reply without JavaScript: the form carries the parent, the server threads it', async () => {
    const { owner, grace, task, as } = await world()
    const parent = await createComment(db, { taskId: task.id, userId: owner.id })
    const result = await (await as(grace))({
      intent: 'add',
      taskId: task.id,
      content: 'Agreed',
      parentCommentId: parent.id,
    })
    expect(result.status).toBe(302)
    const [reply] = await db.select().from(comments).where(eq(comments.parentCommentId, parent.id))
    expect(reply).toMatchObject({ userId: grace.id, content: 'Agreed' })
  })

  test('blank text gets 400 with the failure message and changes nothing', async () => {
    const { owner, task, as } = await world()
    const result = await (await as(owner))({ intent: 'add', taskId: task.id, content: '  \n ' })
    expect(result.status).toBe(400)
    expect(result.data).toMatchObject({ error: FAILURE_TOASTS.add, detail: 'Write a comment first' })
    expect(await db.select().from(comments).where(eq(comments.taskId, task.id))).toEqual([])
  })

  // Thirty real posts first: on a loaded machine that alone can pass vitest's 5 s default.
  test('too many comments in a minute get 429 with Retry-After', async () => {
    const { owner, task, as } = await world()
    const post = await as(owner)
    for (let i = 0; i < COMMENT_RATE_LIMIT.limit; i += 1)
      await post({ intent: 'add', taskId: task.id, content: `#${i}` })
    const result = await post({ intent: 'add', taskId: task.id, content: 'one more' })
    expect(result.status).toBe(429)
    expect(Number(result.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(result.data).toMatchObject({ error: FAILURE_TOASTS.add, detail: COMMENT_RATE_LIMIT.message })
  }, 30_000)

  test('a visitor is sent to sign in', async () => {
    const { task } = await world()
    const result = await callAction(action, {
      url: '/task/comments',
      form: { intent: 'add', taskId: task.id, content: 'Hi' },
    })
    expect(result.status).toBe(302)
    expect(result.location).toMatch(/^\/login\?redirect=/)
  })
})

describe('editing, deleting, reacting', () => {
  test('the author edits and deletes, with the toasts of product rules §4', async () => {
    const { grace, task, as } = await world()
    const comment = await createComment(db, { taskId: task.id, userId: grace.id, content: 'Draft' })
    const post = await as(grace)
    const edited = await post({ intent: 'edit', commentId: comment.id, content: 'Final' })
    expect((await toastOf(edited.headers))?.title).toBe(UPDATED_TOAST)
    expect(UPDATED_TOAST).toBe('Comment updated successfully! ✏️')
    const deleted = await post({ intent: 'delete', commentId: comment.id })
    expect((await toastOf(deleted.headers))?.title).toBe(DELETED_TOAST)
    expect(DELETED_TOAST).toBe('Comment deleted successfully! 🗑️')
    expect(await db.select().from(comments).where(eq(comments.id, comment.id))).toEqual([])
  })

  test("someone else's comment: 403 with the failure message, and the text stays", async () => {
    const { owner, grace, task, as } = await world()
    const comment = await createComment(db, { taskId: task.id, userId: grace.id, content: 'Mine' })
    const post = await as(owner)
    expect((await post({ intent: 'edit', commentId: comment.id, content: 'Hijack' })).data).toMatchObject({
      error: FAILURE_TOASTS.edit,
    })
    const refused = await post({ intent: 'delete', commentId: comment.id })
    expect(refused).toMatchObject({
      status: 403,
      data: { error: 'Failed to delete comment. Please try again.' },
    })
    const [row] = await db.select().from(comments).where(eq(comments.id, comment.id))
    expect(row?.content).toBe('Mine')
  })

  test('a reaction toggles on and off and comes back without a toast', async () => {
    const { owner, grace, task, as } = await world()
    const comment = await createComment(db, { taskId: task.id, userId: owner.id })
    const post = await as(grace)
    const on = await post({ intent: 'react', commentId: comment.id, reactionType: 'fire' })
    expect(on.status).toBe(302)
    expect(await toastOf(on.headers)).toBeNull()
    expect(
      await db.select().from(commentReactions).where(eq(commentReactions.commentId, comment.id)),
    ).toHaveLength(1)
    await post({ intent: 'react', commentId: comment.id, reactionType: 'fire' })
    expect(
      await db.select().from(commentReactions).where(eq(commentReactions.commentId, comment.id)),
    ).toHaveLength(0)
    const unknown = await post({ intent: 'react', commentId: comment.id, reactionType: 'party' })
    expect(unknown).toMatchObject({
      status: 400,
      data: { error: 'Failed to add reaction. Please try again.' },
    })
  })
})

test('its loader never redirects: after a refused post without JavaScript it runs before the refusal renders', () => {
  expect(loader()).toBeNull()
})
