import { test } from '@fast-check/vitest'
import { count, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import * as schema from '~/db/schema'
import { taskShares, tasks } from '~/db/schema'
import { Invalid } from '~/services/errors'
import { TaskFieldsSchema, TaskUpdateSchema } from '~/services/tasks/task-schemas'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../../tests/helpers/factories'
import { failure } from '../../../tests/helpers/failure'
import {
  eventsAfter,
  expectRefused,
  fields,
  lastEventId,
  notYourParent,
  sharesOf,
  taskRow,
  type UserRow,
  viewerOf,
  worldAround,
} from '../../../tests/helpers/task-service'
import { listSubtasks } from './reads.server'
import { createTask, deleteTask, setTaskStatus, shareTask, updateTask } from './writes.server'

/**
 * Changing tasks: what the service accepts, what it refuses, and what it leaves in the rows. Rows
 * come from the factories (so a case states its world directly); every change goes through the
 * service.
 */

const db = database()

// ── Validation at the service ───────────────────────────────────────────────

describe('validation, as every entry point calls the service (parse, then the service)', () => {
  let owner: UserRow
  beforeAll(async () => {
    owner = await createUser(db, { name: 'Vera Valid' })
  })

  test('a new task stores the defaults: medium, Not Started, 1 hour, private, shared with nobody', async () => {
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Defaults only' }))
    expect(task).toMatchObject({
      text: 'Defaults only',
      details: null,
      refLink: null,
      priority: 'medium',
      status: 'Not Started',
      hrs: 1,
      isPublic: false,
      parentTaskId: null,
      sharedWith: [],
      sharedWithNames: [],
      completedAt: null,
      ownerName: 'Vera Valid',
      userId: owner.id,
    })
    expect(await taskRow(task.id)).toMatchObject({ priority: 'medium', status: 'Not Started', hrs: 1 })
  })

  test.each([
    ['text of 3 characters after trimming', { text: '  abc  ' }, { text: 'abc' }],
    ['text of 200 characters', { text: 't'.repeat(200) }, { text: 't'.repeat(200) }],
    ['details of 500 characters', { details: 'd'.repeat(500) }, { details: 'd'.repeat(500) }],
    ['1 hour', { hrs: 1 }, { hrs: 1 }],
    ['8 hours', { hrs: '8' }, { hrs: 8 }],
    ['an https link', { refLink: 'https://example.com/a' }, { refLink: 'https://example.com/a' }],
    ['high priority, In Progress', { priority: 'high', status: 'In Progress' }, { priority: 'high' }],
    ['a due date', { dueDate: '2026-12-03' }, { dueDate: '2026-12-03' }],
    ['a leap day', { dueDate: '2028-02-29' }, { dueDate: '2028-02-29' }],
    ['an empty due date', { dueDate: '' }, { dueDate: null }],
  ] as const)('%s is stored as given', async (_, input, stored) => {
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Edge case', ...input }))
    expect(await taskRow(task.id)).toMatchObject(stored)
  })

  test.each([
    ['text of 2 characters', { text: 'ab' }],
    ['text of 2 characters inside spaces', { text: '  ab  ' }],
    ['text of 201 characters', { text: 't'.repeat(201) }],
    ['details of 501 characters', { details: 'd'.repeat(501) }],
    ['0 hours', { hrs: 0 }],
    ['9 hours', { hrs: 9 }],
    ['1.5 hours', { hrs: 1.5 }],
    ['an ftp link', { refLink: 'ftp://x' }],
    ['a link that is no URL', { refLink: 'not a url' }],
    ['a bad e-mail', { sharedWith: 'grace@' }],
    ['51 e-mails', { sharedWith: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) }],
    ['an unknown priority', { priority: 'urgent' }],
    ['an unknown status', { status: 'Done' }],
    ['a due date with a time', { dueDate: '2026-12-03T10:00' }],
    ['a due date with a zone', { dueDate: '2026-12-03Z' }],
    ['a day that does not exist', { dueDate: '2026-02-30' }],
    ['a month that does not exist', { dueDate: '2026-13-01' }],
    ['a date written the American way', { dueDate: '12/03/2026' }],
  ])('%s never reaches the service: the parse refuses it', (_, input) => {
    expect(TaskFieldsSchema.safeParse({ text: 'Edge case', ...input }).success).toBe(false)
  })

  test('an update sets a due date, keeps it when not named, and clears it when empty', async () => {
    const me = viewerOf(owner)
    const task = await createTask(db, me, fields({ text: 'Due soon', dueDate: '2026-12-03' }))
    expect(task.dueDate).toBe('2026-12-03')
    await updateTask(db, me, task.id, TaskUpdateSchema.parse({ text: 'Due soon, renamed' }))
    expect(await taskRow(task.id)).toMatchObject({ dueDate: '2026-12-03' })
    await updateTask(db, me, task.id, TaskUpdateSchema.parse({ dueDate: '2027-01-04' }))
    expect(await taskRow(task.id)).toMatchObject({ dueDate: '2027-01-04' })
    await updateTask(db, me, task.id, TaskUpdateSchema.parse({ dueDate: '' }))
    expect(await taskRow(task.id)).toMatchObject({ dueDate: null })
    expect(TaskUpdateSchema.safeParse({ dueDate: '2027-01-04T00:00:00Z' }).success).toBe(false)
  })

  test('sharing with your own address is Invalid, whatever its case, and writes nothing', async () => {
    const me = viewerOf(owner)
    const [taskCount] = await db.select({ n: count() }).from(tasks)
    const since = await lastEventId()
    const error = await failure(
      createTask(
        db,
        me,
        fields({ text: 'Mine alone', sharedWith: `a@example.com, ${owner.email.toUpperCase()}` }),
      ),
    )
    expect(error).toBeInstanceOf(Invalid)
    expect(error.message).toBe('You cannot share a task with yourself.')
    expect((error as Invalid).issues).toEqual([
      { path: ['sharedWith'], message: 'You cannot share a task with yourself.' },
    ])
    expect((await db.select({ n: count() }).from(tasks))[0]).toEqual(taskCount)
    expect(await eventsAfter(since)).toEqual([])

    const task = await insertTask(db, { userId: owner.id })
    const ownAddress = TaskUpdateSchema.parse({ sharedWith: owner.email.toUpperCase() }).sharedWith ?? []
    await expectRefused(task.id, () => shareTask(db, me, task.id, ownAddress), new Invalid(error.message))
    await expectRefused(
      task.id,
      () => updateTask(db, me, task.id, { text: 'Changed too', sharedWith: ownAddress }),
      new Invalid(error.message),
    )
  })

  test('addresses differing only in case are one share', async () => {
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({ text: 'Shared once', sharedWith: 'A@x.com, a@X.com' }),
    )
    expect(task.sharedWith).toEqual(['a@x.com'])
    expect(await sharesOf(task.id)).toEqual(['a@x.com'])
  })

  test('sharing replaces the whole list', async () => {
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({ text: 'Reshared', sharedWith: 'a@x.com, b@x.com' }),
    )
    await shareTask(db, viewerOf(owner), task.id, ['c@x.com', 'b@x.com'])
    expect(await sharesOf(task.id)).toEqual(['b@x.com', 'c@x.com'])
    await shareTask(db, viewerOf(owner), task.id, [])
    expect(await sharesOf(task.id)).toEqual([])
  })

  test('an edit writes only the shares it changes: one kept is not written again', async () => {
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({ text: 'Kept shares', sharedWith: 'a@x.com, b@x.com' }),
    )
    // A share written again is a new row (and re-indexes the task and its comments for search).
    const rowsOf = () =>
      db.all<{ email: string; rowid: number }>(
        sql`SELECT email, rowid FROM task_shares WHERE task_id = ${task.id} ORDER BY email`,
      )
    const [a, b] = await rowsOf()
    await updateTask(db, viewerOf(owner), task.id, {
      text: 'Kept shares, renamed',
      sharedWith: ['b@x.com', 'a@x.com'],
    })
    expect(await rowsOf()).toEqual([a, b])
    await shareTask(db, viewerOf(owner), task.id, ['b@x.com', 'c@x.com'])
    const [kept, added] = await rowsOf()
    expect(kept).toEqual(b)
    expect(added?.email).toBe('c@x.com')
  })

  test('an update clears details and link with null and leaves unnamed fields alone', async () => {
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({
        text: 'Full task',
        details: 'Some details',
        refLink: 'https://example.com',
        priority: 'low',
        hrs: 3,
      }),
    )
    const updated = await updateTask(
      db,
      viewerOf(owner),
      task.id,
      TaskUpdateSchema.parse({ details: '', refLink: '' }),
    )
    expect(updated).toMatchObject({
      text: 'Full task',
      details: null,
      refLink: null,
      priority: 'low',
      hrs: 3,
    })
  })

  // The rows' CHECK constraints are the last line behind an entry point that forgot to parse; because the
  // event is written in the same transaction, a refused row leaves no event either.
  test('a row the database refuses leaves no task and no event', async () => {
    const me = viewerOf(owner)
    const task = await insertTask(db, { userId: owner.id })
    const before = await worldAround(task.id)
    await failure(createTask(db, me, { ...fields({ text: 'Too long a day' }), hrs: 9 }))
    await failure(createTask(db, me, { ...fields({ text: 'Odd priority' }), priority: 'urgent' as 'high' }))
    await failure(updateTask(db, me, task.id, { hrs: 0 }))
    await failure(updateTask(db, me, task.id, { status: 'Done' as 'Completed' }))
    expect(await worldAround(task.id)).toEqual(before)
  })
})

// ── Subtasks ────────────────────────────────────────────────────────────────

describe('subtasks', () => {
  let ada: UserRow
  let grace: UserRow
  let _eve: UserRow
  beforeAll(async () => {
    ada = await createUser(db, { name: 'Ada Parent' })
    grace = await createUser(db, { name: 'Grace Helper' })
    _eve = await createUser(db, { name: 'Eve Outsider' })
  })

  function parentIssue(message: string) {
    return [{ path: ['parentTaskId'], message }]
  }

  test('a subtask hangs under one of its owner’s tasks', async () => {
    const parent = await insertTask(db, { userId: ada.id })
    const since = await lastEventId()
    const subtask = await createTask(
      db,
      viewerOf(ada),
      fields({ text: 'First step', parentTaskId: parent.id }),
    )
    expect(subtask.parentTaskId).toBe(parent.id)
    expect((await eventsAfter(since)).map((event) => [event.type, event.taskId])).toEqual([
      ['task-created', subtask.id],
    ])
  })

  test('under another user’s task, or one that does not exist: the same Invalid answer', async () => {
    const gracesTask = await insertTask(db, { userId: grace.id, isPublic: true })
    for (const parentTaskId of [gracesTask.id, 'no-such-task']) {
      const error = await expectRefused(
        gracesTask.id,
        () => createTask(db, viewerOf(ada), fields({ text: 'Hijack', parentTaskId })),
        notYourParent,
      )
      expect((error as Invalid).issues).toEqual(parentIssue(notYourParent.message))
    }
    const mine = await insertTask(db, { userId: ada.id })
    await expectRefused(
      mine.id,
      () => updateTask(db, viewerOf(ada), mine.id, { parentTaskId: gracesTask.id }),
      notYourParent,
    )
  })

  test('one level deep: a subtask cannot have subtasks', async () => {
    const parent = await insertTask(db, { userId: ada.id })
    const child = await insertTask(db, { userId: ada.id, parentTaskId: parent.id })
    const tooDeep = new Invalid('Subtasks cannot have subtasks of their own.')
    const error = await expectRefused(
      child.id,
      () => createTask(db, viewerOf(ada), fields({ text: 'Grandchild', parentTaskId: child.id })),
      tooDeep,
    )
    expect((error as Invalid).issues).toEqual(parentIssue(tooDeep.message))
    const other = await insertTask(db, { userId: ada.id })
    await expectRefused(
      other.id,
      () => updateTask(db, viewerOf(ada), other.id, { parentTaskId: child.id }),
      tooDeep,
    )
  })

  test('a task with subtasks cannot become a subtask', async () => {
    const parent = await insertTask(db, { userId: ada.id })
    await insertTask(db, { userId: ada.id, parentTaskId: parent.id })
    const target = await insertTask(db, { userId: ada.id })
    await expectRefused(
      parent.id,
      () => updateTask(db, viewerOf(ada), parent.id, { parentTaskId: target.id }),
      new Invalid('A task with subtasks cannot become a subtask.'),
    )
  })

  test('a task is not its own parent', async () => {
    const task = await insertTask(db, { userId: ada.id })
    await expectRefused(
      task.id,
      () => updateTask(db, viewerOf(ada), task.id, { parentTaskId: task.id }),
      new Invalid('A task cannot be its own subtask.'),
    )
  })

  test('a subtask moves to another of its owner’s tasks, and out to the top level', async () => {
    const first = await insertTask(db, { userId: ada.id })
    const second = await insertTask(db, { userId: ada.id })
    const child = await insertTask(db, { userId: ada.id, parentTaskId: first.id })
    expect((await updateTask(db, viewerOf(ada), child.id, { parentTaskId: second.id })).parentTaskId).toBe(
      second.id,
    )
    const topLevel = await updateTask(
      db,
      viewerOf(ada),
      child.id,
      TaskUpdateSchema.parse({ parentTaskId: '' }),
    )
    expect(topLevel.parentTaskId).toBeNull()
  })

  test('deleting a parent deletes its subtasks, with a task-deleted event for each', async () => {
    const parent = await insertTask(db, { userId: ada.id })
    const children = [
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id }),
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id }),
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id }),
    ]
    const bystander = await insertTask(db, { userId: ada.id })
    const since = await lastEventId()
    await deleteTask(db, viewerOf(ada), parent.id)
    for (const task of [parent, ...children]) expect(await taskRow(task.id)).toBeUndefined()
    expect(await taskRow(bystander.id)).toBeDefined()
    const written = await eventsAfter(since)
    expect(written.map((event) => event.type)).toEqual(Array(4).fill('task-deleted'))
    expect(written.map((event) => event.taskId).sort()).toEqual(
      [parent, ...children].map((task) => task.id).sort(),
    )
    // Each carries who could see it, for streams to decide who hears of the deletion.
    const personal = { workspaceId: ada.id, members: [ada.id], admins: [ada.id] }
    const audience = { ownerId: ada.id, isPublic: false, sharedWith: [], ...personal }
    for (const event of written) {
      expect(event.payload).toEqual({ taskId: event.taskId, userId: ada.id, audience })
    }
  })

  test('deleting a subtask leaves its parent and siblings', async () => {
    const parent = await insertTask(db, { userId: ada.id })
    const [gone, kept] = [
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id }),
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id }),
    ]
    await deleteTask(db, viewerOf(ada), gone.id)
    expect((await listSubtasks(db, viewerOf(ada), parent.id)).map((row) => row.id)).toEqual([kept.id])
  })
})

// ── completedAt ─────────────────────────────────────────────────────────────

describe('completedAt', () => {
  let owner: UserRow
  let helper: UserRow
  beforeAll(async () => {
    owner = await createUser(db)
    helper = await createUser(db)
  })

  test('is set when the status becomes Completed, kept while it stays, cleared when it leaves', async () => {
    const task = await insertTask(db, { userId: owner.id })
    await insertShares(db, task.id, [helper.email])
    const me = viewerOf(owner)
    expect((await taskRow(task.id))?.completedAt).toBeNull()

    const start = Date.now()
    const done = await setTaskStatus(db, viewerOf(helper), task.id, 'Completed')
    const completedAt = done.completedAt
    expect(completedAt).not.toBeNull()
    expect(Date.parse(completedAt ?? '')).toBeGreaterThanOrEqual(start)
    expect(Date.parse(completedAt ?? '')).toBeLessThanOrEqual(Date.now())

    await new Promise((resolve) => setTimeout(resolve, 5))
    // Staying Completed, by any path, keeps the moment it was completed.
    expect((await setTaskStatus(db, me, task.id, 'Completed')).completedAt).toBe(completedAt)
    expect((await updateTask(db, me, task.id, { text: 'Renamed when done' })).completedAt).toBe(completedAt)
    expect((await updateTask(db, me, task.id, { status: 'Completed', hrs: 2 })).completedAt).toBe(completedAt)

    expect((await setTaskStatus(db, viewerOf(helper), task.id, 'In Progress')).completedAt).toBeNull()
    expect((await taskRow(task.id))?.completedAt).toBeNull()

    const again = await updateTask(db, me, task.id, { status: 'Completed' })
    expect(again.completedAt).not.toBeNull()
    expect(Date.parse(again.completedAt ?? '')).toBeGreaterThan(Date.parse(completedAt ?? ''))
    expect((await updateTask(db, me, task.id, { status: 'Not Started' })).completedAt).toBeNull()
  })

  test('a task created Completed is completed from the start', async () => {
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Already done', status: 'Completed' }))
    expect(task.completedAt).not.toBeNull()
    expect(task.completedAt).toBe(task.createdAt)
  })
})

describe('people per shared task follow the owner’s plan', () => {
  const people = (count: number) => Array.from({ length: count }, (_, i) => `plan-share-${i}@example.com`)

  test('the free plan shares with at most 10 people; a paid plan with up to 50', async () => {
    const owner = await createUser(db)
    await expect(
      createTask(db, viewerOf(owner), fields({ text: 'Team task', sharedWith: people(11) })),
    ).rejects.toThrow('Your plan shares a task with at most 10 people. A paid plan shares with up to 50.')
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Team task', sharedWith: people(10) }))

    await db
      .update(schema.users)
      .set({ plan: 'tier1', planKind: 'lifetime' })
      .where(eq(schema.users.id, owner.id))
    await updateTask(db, viewerOf(owner), task.id, TaskUpdateSchema.parse({ sharedWith: people(50) }))
    expect(await db.select().from(taskShares).where(eq(taskShares.taskId, task.id))).toHaveLength(50)

    // A yearly plan that has ended is the free plan again.
    await db
      .update(schema.users)
      .set({ planKind: 'yearly', accessUntil: new Date(Date.now() - 1000) })
      .where(eq(schema.users.id, owner.id))
    await expect(
      updateTask(db, viewerOf(owner), task.id, TaskUpdateSchema.parse({ sharedWith: people(11) })),
    ).rejects.toThrow(Invalid)
  })
})
