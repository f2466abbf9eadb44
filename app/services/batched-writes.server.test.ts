import type { Client } from '@libsql/client'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { type Database, database } from '~/db/client.server'
import { commentReactions, comments, events, notifications, taskShares, tasks } from '~/db/schema'
import {
  createUser,
  createComment as insertComment,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../tests/helpers/factories'
import { toggleReaction } from './comment-reactions.server'
import { addComment, deleteComment, updateComment } from './comments.server'
import { NotFound } from './errors'
import { toSessionUser } from './sessions.server'
import { deleteTask, setTaskStatus, updateTask } from './tasks/writes.server'

/**
 * The hot writes go out as one batch after their checks were read (app/db/write.server.ts). These
 * tests change the world in the moment between the two — a share revoked, a task deleted, a
 * subtask added — and show that the batch's own conditions hold the rules: nothing the rules now
 * forbid is written, no event announces a change that did not happen, and the person is told.
 */

const db = database()

/** The database, with `meanwhile` run right before the service's commit goes out. */
function withChangeBeforeBatch(meanwhile: () => Promise<unknown>): Database {
  let hasRun = false
  const first = async () => {
    if (!hasRun) {
      hasRun = true
      await meanwhile()
    }
  }
  const clientBatch: Client['batch'] = async (statements, mode) => {
    await first()
    return db.$client.batch(statements, mode)
  }
  const $client = Object.assign(Object.create(db.$client) as Client, { batch: clientBatch })
  return Object.assign(Object.create(db) as Database, { $client })
}

async function world() {
  const owner = await createUser(db, { name: 'Owner' })
  const shared = await createUser(db, { name: 'Shared' })
  const task = await insertTask(db, { userId: owner.id, text: 'Guarded' })
  await insertShares(db, task.id, [shared.email])
  const revoke = () => db.delete(taskShares).where(eq(taskShares.taskId, task.id))
  return { owner: toSessionUser(owner), shared: toSessionUser(shared), task, revoke }
}

const eventsOf = (taskId: string) => db.select().from(events).where(eq(events.taskId, taskId))

describe('a rule that changed between the check and the batch', () => {
  test('a share revoked meanwhile moves no status and logs no event', async () => {
    const { shared, task, revoke } = await world()
    await expect(setTaskStatus(withChangeBeforeBatch(revoke), shared, task.id, 'Completed')).rejects.toThrow(
      NotFound,
    )
    const [row] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, task.id))
    expect(row?.status).toBe('Not Started')
    expect(await eventsOf(task.id)).toEqual([])
  })

  test('a share revoked meanwhile posts no comment and logs no event', async () => {
    const { shared, task, revoke } = await world()
    await expect(
      addComment(withChangeBeforeBatch(revoke), shared, {
        taskId: task.id,
        content: 'Too late',
        mentions: [],
      }),
    ).rejects.toThrow(NotFound)
    expect(await db.select().from(comments).where(eq(comments.taskId, task.id))).toEqual([])
    expect(await eventsOf(task.id)).toEqual([])
  })

  test('a share revoked meanwhile takes no edit and notifies nobody it mentions', async () => {
    const { owner, shared, task, revoke } = await world()
    const comment = await insertComment(db, { taskId: task.id, userId: shared.id, content: 'Draft' })
    await expect(
      updateComment(withChangeBeforeBatch(revoke), shared, comment.id, `@${owner.name} please look`),
    ).rejects.toThrow(NotFound)
    const [row] = await db
      .select({ content: comments.content })
      .from(comments)
      .where(eq(comments.id, comment.id))
    expect(row?.content).toBe('Draft')
    expect(await db.select().from(notifications).where(eq(notifications.commentId, comment.id))).toEqual([])
    expect(await eventsOf(task.id)).toEqual([])
  })

  test('a share revoked meanwhile adds no reaction and logs no event', async () => {
    const { owner, shared, task, revoke } = await world()
    const comment = await insertComment(db, { taskId: task.id, userId: owner.id })
    await expect(toggleReaction(withChangeBeforeBatch(revoke), shared, comment.id, 'heart')).rejects.toThrow(
      NotFound,
    )
    expect(
      await db.select().from(commentReactions).where(eq(commentReactions.commentId, comment.id)),
    ).toEqual([])
    expect(await eventsOf(task.id)).toEqual([])
  })

  test('a task deleted meanwhile takes no edit, no shares and no event', async () => {
    const { owner, task } = await world()
    const remove = () => db.delete(tasks).where(eq(tasks.id, task.id))
    await expect(
      updateTask(withChangeBeforeBatch(remove), owner, task.id, {
        text: 'Renamed',
        sharedWith: ['x@example.test'],
      }),
    ).rejects.toThrow(NotFound)
    expect(await db.select().from(taskShares).where(eq(taskShares.taskId, task.id))).toEqual([])
    expect(await eventsOf(task.id)).toEqual([])
  })

  test('a subtask added meanwhile is deleted with its parent, and announced', async () => {
    const { owner, task } = await world()
    const late = { id: crypto.randomUUID() }
    const addSubtask = () => insertTask(db, { id: late.id, userId: owner.id, parentTaskId: task.id })
    await deleteTask(withChangeBeforeBatch(addSubtask), owner, task.id)
    expect(await db.select().from(tasks).where(eq(tasks.id, late.id))).toEqual([])
    const deleted = await db
      .select({ taskId: events.taskId })
      .from(events)
      .where(and(eq(events.type, 'task-deleted')))
    expect(deleted.map((event) => event.taskId)).toEqual(expect.arrayContaining([task.id, late.id]))
  })
})

describe('nothing changed meanwhile', () => {
  test('a toggle adds, then removes, with one event each saying which', async () => {
    const { owner, shared, task } = await world()
    const comment = await insertComment(db, { taskId: task.id, userId: owner.id })
    expect((await toggleReaction(db, shared, comment.id, 'fire')).isActive).toBe(true)
    expect((await toggleReaction(db, shared, comment.id, 'fire')).isActive).toBe(false)
    const logged = (await eventsOf(task.id)).map((event) => event.payload.isActive)
    expect(logged).toEqual([true, false])
  })
})

describe('deleting a comment', () => {
  test('a reply posted meanwhile turns the deletion into a placeholder, and the reply survives', async () => {
    const { owner, task } = await world()
    const comment = await insertComment(db, { taskId: task.id, userId: owner.id, content: 'Soon gone' })
    const reply = { id: crypto.randomUUID() }
    const postReply = () =>
      insertComment(db, { id: reply.id, taskId: task.id, userId: owner.id, parentCommentId: comment.id })
    await deleteComment(withChangeBeforeBatch(postReply), owner, comment.id)
    const [placeholder] = await db.select().from(comments).where(eq(comments.id, comment.id))
    expect(placeholder?.deletedAt).not.toBeNull()
    expect(placeholder?.content).toBe('')
    expect(await db.select().from(comments).where(eq(comments.id, reply.id))).toHaveLength(1)
    const logged = await eventsOf(task.id)
    expect(logged.map((event) => [event.type, event.payload.isPlaceholder])).toEqual([
      ['comment-deleted', true],
    ])
  })
})
