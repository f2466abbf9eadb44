import { test } from '@fast-check/vitest'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { Invalid } from '~/services/errors'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../../tests/helpers/factories'
import {
  eventsAfter,
  expectRefused,
  fields,
  forbidden,
  lastEventId,
  notFound,
  type UserRow,
  viewerOf,
  worldAround,
} from '../../../tests/helpers/task-service'
import { createTask, deleteTask, setTaskStatus, shareTask, updateTask } from './writes.server'

/**
 * The events each change to a task appends, in its own transaction: exactly these, with these
 * payloads, and none for a refused change.
 */

const db = database()

// ── Events ──────────────────────────────────────────────────────────────────

describe('events: each change writes exactly its events', () => {
  let owner: UserRow
  let helper: UserRow
  beforeAll(async () => {
    owner = await createUser(db)
    helper = await createUser(db)
  })

  async function eventsOf(change: () => Promise<unknown>) {
    const since = await lastEventId()
    await change()
    return (await eventsAfter(since)).map(({ topic, type, taskId, payload }) => ({
      topic,
      type,
      taskId,
      payload,
    }))
  }

  test('create: task-created', async () => {
    let id = ''
    const written = await eventsOf(async () => {
      id = (await createTask(db, viewerOf(owner), fields({ text: 'Brand new', sharedWith: 'x@example.com' })))
        .id
    })
    expect(written).toEqual([
      { topic: 'tasks', type: 'task-created', taskId: id, payload: { taskId: id, userId: owner.id } },
    ])
  })

  test('update: task-updated', async () => {
    const task = await insertTask(db, { userId: owner.id })
    expect(
      await eventsOf(() => updateTask(db, viewerOf(owner), task.id, { text: 'New words', priority: 'low' })),
    ).toEqual([
      {
        topic: 'tasks',
        type: 'task-updated',
        taskId: task.id,
        payload: { taskId: task.id, userId: owner.id },
      },
    ])
  })

  test('an update that changes the status: task-updated and task-status-changed', async () => {
    const task = await insertTask(db, { userId: owner.id, status: 'In Progress' })
    expect(await eventsOf(() => updateTask(db, viewerOf(owner), task.id, { status: 'Completed' }))).toEqual([
      {
        topic: 'tasks',
        type: 'task-updated',
        taskId: task.id,
        payload: { taskId: task.id, userId: owner.id },
      },
      {
        topic: 'tasks',
        type: 'task-status-changed',
        taskId: task.id,
        payload: { taskId: task.id, userId: owner.id, oldStatus: 'In Progress', newStatus: 'Completed' },
      },
    ])
  })

  test('an update naming the status it already has: only task-updated', async () => {
    const task = await insertTask(db, { userId: owner.id, status: 'In Progress' })
    const written = await eventsOf(() =>
      updateTask(db, viewerOf(owner), task.id, { status: 'In Progress', hrs: 4 }),
    )
    expect(written.map((event) => event.type)).toEqual(['task-updated'])
  })

  test('setStatus by a shared user: task-status-changed with the old and the new status', async () => {
    const task = await insertTask(db, { userId: owner.id })
    await insertShares(db, task.id, [helper.email])
    expect(await eventsOf(() => setTaskStatus(db, viewerOf(helper), task.id, 'In Progress'))).toEqual([
      {
        topic: 'tasks',
        type: 'task-status-changed',
        taskId: task.id,
        payload: { taskId: task.id, userId: helper.id, oldStatus: 'Not Started', newStatus: 'In Progress' },
      },
    ])
  })

  test('setStatus to the status it already has: no event, nothing changes', async () => {
    const task = await insertTask(db, { userId: owner.id, status: 'In Progress' })
    const before = await worldAround(task.id)
    const result = await setTaskStatus(db, viewerOf(owner), task.id, 'In Progress')
    expect(result.status).toBe('In Progress')
    expect(await worldAround(task.id)).toEqual(before)
  })

  test('share: task-updated', async () => {
    const task = await insertTask(db, { userId: owner.id })
    expect(
      (await eventsOf(() => shareTask(db, viewerOf(owner), task.id, [helper.email]))).map((e) => e.type),
    ).toEqual(['task-updated'])
  })

  test('delete: task-deleted, which outlives the task and carries who could see it', async () => {
    const task = await insertTask(db, { userId: owner.id, isPublic: true })
    await insertShares(db, task.id, ['grace@example.test'])
    expect(await eventsOf(() => deleteTask(db, viewerOf(owner), task.id))).toEqual([
      {
        topic: 'tasks',
        type: 'task-deleted',
        taskId: task.id,
        payload: {
          taskId: task.id,
          userId: owner.id,
          audience: {
            ownerId: owner.id,
            isPublic: true,
            sharedWith: ['grace@example.test'],
            // In the owner's personal workspace: its one member.
            workspaceId: owner.id,
            members: [owner.id],
            admins: [owner.id],
          },
        },
      },
    ])
  })

  test('a refused change writes no event and changes no row', async () => {
    const task = await insertTask(db, { userId: owner.id })
    await insertShares(db, task.id, [helper.email])
    const stranger = viewerOf(await createUser(db))
    await expectRefused(
      task.id,
      () => updateTask(db, viewerOf(helper), task.id, { text: 'Not mine' }),
      forbidden,
    )
    await expectRefused(task.id, () => deleteTask(db, viewerOf(helper), task.id), forbidden)
    await expectRefused(task.id, () => setTaskStatus(db, stranger, task.id, 'Completed'), notFound)
    await expectRefused(
      task.id,
      () => updateTask(db, viewerOf(owner), task.id, { parentTaskId: task.id }),
      new Invalid('A task cannot be its own subtask.'),
    )
    await expectRefused(
      task.id,
      () => shareTask(db, viewerOf(owner), task.id, [owner.email]),
      new Invalid('You cannot share a task with yourself.'),
    )
  })
})
