import { test } from '@fast-check/vitest'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import type { Viewer } from '~/services/session-user'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../../tests/helpers/factories'
import { expectRefused, notFound, type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { listTaskGroups } from './list.server'
import { getTask, getTaskDetails, listSubtasks, listVisibleTasks } from './reads.server'
import { setTaskStatus } from './writes.server'

/**
 * What a viewer reads of a task: whom it is shared with, and its subtasks and their progress,
 * only as far as the visibility rule lets them see.
 */

const db = database()

// ── Who sees whom a task is shared with ─────────────────────────────────────

/**
 * Whom a task is shared with is its owner's to know. Everyone else who may see the task — a
 * person it is shared with, a signed-in stranger, a visitor of a public task — reads the names
 * of verified accounts at most, and never an address, whichever function hands them the task.
 */
describe('who sees whom a task is shared with', () => {
  let owner: UserRow
  let grace: UserRow
  let eve: UserRow
  let task: Awaited<ReturnType<typeof insertTask>>
  let subtask: Awaited<ReturnType<typeof insertTask>>
  const invitee = 'not-yet@example.com'
  const unverifiedAddress = 'unproven@example.com'

  beforeAll(async () => {
    owner = await createUser(db, { name: 'Olive Owner' })
    grace = await createUser(db, { name: 'Grace Guest' })
    eve = await createUser(db, { name: 'Eve Elsewhere' })
    await createUser(db, { name: 'Ursula Unproven', email: unverifiedAddress, emailVerifiedAt: null })
    task = await insertTask(db, { userId: owner.id, isPublic: true, text: 'Public and shared' })
    await insertShares(db, task.id, [grace.email, invitee, unverifiedAddress])
    subtask = await insertTask(db, { userId: owner.id, parentTaskId: task.id, isPublic: true })
    await insertShares(db, subtask.id, [grace.email, invitee])
  })

  /** Every address the task or its subtask is shared with: none may reach a non-owner. */
  const addresses = () => [grace.email, invitee, unverifiedAddress]

  function expectNoAddress(value: unknown) {
    const text = JSON.stringify(value)
    for (const address of addresses()) expect(text).not.toContain(address)
    expect(text).not.toMatch(/@/)
  }

  test('the owner sees every address, with the name of each verified account', async () => {
    const { task: seen } = await getTask(db, viewerOf(owner), task.id)
    const pairs = seen.sharedWith.map((email, i) => [email, seen.sharedWithNames[i]])
    expect(pairs.sort()).toEqual(
      [
        [grace.email, 'Grace Guest'],
        [invitee, invitee],
        [unverifiedAddress, unverifiedAddress],
      ].sort(),
    )
    const [listed] = (await listVisibleTasks(db, viewerOf(owner))).filter((row) => row.id === task.id)
    expect(listed?.sharedWith.sort()).toEqual(addresses().sort())
  })

  test.each([
    ['a person it is shared with', () => viewerOf(grace)],
    ['a signed-in stranger', () => viewerOf(eve)],
    ['a visitor', () => null],
  ])('%s sees the verified names only, and no address', async (_, viewerFor) => {
    const viewer = viewerFor()
    const { task: seen } = await getTask(db, viewer, task.id)
    expect(seen.sharedWith).toEqual([])
    expect(seen.sharedWithNames).toEqual(['Grace Guest'])
    expectNoAddress(seen)
    expectNoAddress(await getTaskDetails(db, viewer, task.id))
    expectNoAddress(await listSubtasks(db, viewer, task.id))
    if (viewer) {
      expectNoAddress(await listTaskGroups(db, viewer, personalWorkspaceId(viewer)))
      expectNoAddress(await listVisibleTasks(db, viewer))
    }
  })

  test('a status change by a person it is shared with answers without the addresses', async () => {
    const changed = await setTaskStatus(db, viewerOf(grace), task.id, 'In Progress')
    expect(changed).toMatchObject({ status: 'In Progress', sharedWith: [] })
    expectNoAddress(changed)
  })
})

// ── Subtasks, as each viewer reads them ──────────────────────────────────────

describe('subtasks, as each viewer reads them', () => {
  let ada: UserRow
  let grace: UserRow
  let eve: UserRow
  beforeAll(async () => {
    ada = await createUser(db, { name: 'Ada Parent' })
    grace = await createUser(db, { name: 'Grace Helper' })
    eve = await createUser(db, { name: 'Eve Outsider' })
  })

  test('a parent shows its progress in every list; its subtasks are not rows of their own', async () => {
    const parent = await insertTask(db, { userId: ada.id, isPublic: true, text: 'Ship it' })
    await insertShares(db, parent.id, [grace.email])
    for (const status of ['Completed', 'In Progress', 'Completed', 'Not Started'] as const) {
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id, status, isPublic: true })
    }
    const progress = { subtaskCount: 4, subtasksCompleted: 2 }
    expect((await getTask(db, viewerOf(ada), parent.id)).task).toMatchObject(progress)

    const adas = await listTaskGroups(db, viewerOf(ada), personalWorkspaceId(viewerOf(ada)))
    expect(adas.mine.tasks.find((row) => row.id === parent.id)).toMatchObject(progress)
    const subtaskIds = new Set((await listSubtasks(db, viewerOf(ada), parent.id)).map((row) => row.id))
    expect(subtaskIds.size).toBe(4)
    expect(adas.mine.tasks.filter((row) => subtaskIds.has(row.id))).toEqual([])
    expect(
      (await listTaskGroups(db, viewerOf(grace), personalWorkspaceId(viewerOf(grace)))).shared.find(
        (row) => row.id === parent.id,
      ),
    ).toMatchObject(progress)
    const eves = await listTaskGroups(db, viewerOf(eve), personalWorkspaceId(viewerOf(eve)))
    expect(eves.public.find((row) => row.id === parent.id)).toMatchObject(progress)
    expect((await listVisibleTasks(db, viewerOf(eve))).find((row) => row.id === parent.id)).toMatchObject(
      progress,
    )

    const open = (await listSubtasks(db, viewerOf(ada), parent.id)).find((row) => row.status !== 'Completed')
    await setTaskStatus(db, viewerOf(ada), open?.id ?? '', 'Completed')
    expect((await getTask(db, viewerOf(ada), parent.id)).task).toMatchObject({
      subtaskCount: 4,
      subtasksCompleted: 3,
    })
  })

  test('progress counts only the subtasks the viewer may open', async () => {
    const parent = await insertTask(db, { userId: ada.id, isPublic: true, text: 'Launch' })
    await insertShares(db, parent.id, [grace.email])
    await insertTask(db, { userId: ada.id, parentTaskId: parent.id, isPublic: true, status: 'Completed' })
    await insertTask(db, { userId: ada.id, parentTaskId: parent.id, isPublic: true })
    const forGrace = await insertTask(db, { userId: ada.id, parentTaskId: parent.id, status: 'Completed' })
    await insertShares(db, forGrace.id, [grace.email])
    await insertTask(db, { userId: ada.id, parentTaskId: parent.id, status: 'Completed' })

    const progressFor = async (viewer: Viewer) => {
      const { task } = await getTask(db, viewer, parent.id)
      return { subtaskCount: task.subtaskCount, subtasksCompleted: task.subtasksCompleted }
    }
    expect(await progressFor(viewerOf(ada))).toEqual({ subtaskCount: 4, subtasksCompleted: 3 })
    expect(await progressFor(viewerOf(grace))).toEqual({ subtaskCount: 3, subtasksCompleted: 2 })
    expect(await progressFor(viewerOf(eve))).toEqual({ subtaskCount: 2, subtasksCompleted: 1 })
    expect(await progressFor(null)).toEqual({ subtaskCount: 2, subtasksCompleted: 1 })
    // The lists agree with the task, and the count is the length of the list the viewer opens.
    const gracesRow = (
      await listTaskGroups(db, viewerOf(grace), personalWorkspaceId(viewerOf(grace)))
    ).shared.find((row) => row.id === parent.id)
    expect(gracesRow).toMatchObject({ subtaskCount: 3, subtasksCompleted: 2 })
    const evesRow = (await listVisibleTasks(db, viewerOf(eve))).find((row) => row.id === parent.id)
    expect(evesRow).toMatchObject({ subtaskCount: 2, subtasksCompleted: 1 })
    for (const viewer of [viewerOf(ada), viewerOf(grace), viewerOf(eve), null]) {
      expect(await listSubtasks(db, viewer, parent.id)).toHaveLength((await progressFor(viewer)).subtaskCount)
    }
  })
  test('listSubtasks shows each viewer only the subtasks they may see', async () => {
    const parent = await insertTask(db, { userId: ada.id, isPublic: true })
    await insertShares(db, parent.id, [grace.email])
    const sharedToo = await insertTask(db, {
      userId: ada.id,
      parentTaskId: parent.id,
      text: 'Shared step',
      createdAt: new Date(Date.now() - 3000),
    })
    await insertShares(db, sharedToo.id, [grace.email])
    const publicToo = await insertTask(db, {
      userId: ada.id,
      parentTaskId: parent.id,
      isPublic: true,
      text: 'Public step',
      createdAt: new Date(Date.now() - 2000),
    })
    const privateStep = await insertTask(db, {
      userId: ada.id,
      parentTaskId: parent.id,
      text: 'Private step',
      createdAt: new Date(Date.now() - 1000),
    })
    const ids = async (viewer: Viewer) => (await listSubtasks(db, viewer, parent.id)).map((row) => row.id)
    expect(await ids(viewerOf(ada))).toEqual([sharedToo.id, publicToo.id, privateStep.id])
    expect(await ids(viewerOf(grace))).toEqual([sharedToo.id, publicToo.id])
    expect(await ids(viewerOf(eve))).toEqual([publicToo.id])
    expect(await ids(null)).toEqual([publicToo.id])

    const hidden = await insertTask(db, { userId: ada.id })
    await insertTask(db, { userId: ada.id, parentTaskId: hidden.id })
    await expectRefused(hidden.id, () => listSubtasks(db, viewerOf(eve), hidden.id), notFound)
  })
})
