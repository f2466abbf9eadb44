import { fc, test } from '@fast-check/vitest'
import { asc, count, eq, gt, max } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type Database, database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import * as schema from '~/db/schema'
import { emailOutbox, events, taskShares, tasks } from '~/db/schema'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { createSession, findSession } from '~/services/sessions.server'
import { openScratchDatabase } from '../../tests/helpers/db'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../tests/helpers/factories'
import { TASK_LIST_ROW_FIELDS } from '../../tests/helpers/task-list'
import { requestEmailVerification, verifyEmail } from './accounts.server'
import { Forbidden, Invalid, NotFound } from './errors'
import { TaskFieldsSchema, type TaskInput, TaskUpdateSchema } from './task-schemas'
import {
  createTask,
  deleteTask,
  getTask,
  getTaskDetails,
  listSubtasks,
  listTaskGroups,
  listVisibleTasks,
  NOT_ALLOWED,
  setTaskStatus,
  shareTask,
  TASK_NOT_FOUND,
  type TaskView,
  updateTask,
  type Viewer,
} from './tasks.server'

/**
 * The task service: who may see and change a task, what a change writes, and what the lists
 * show. Rows come from the factories (so a case states its world directly); every change goes
 * through the service and is checked in the rows and the event log it leaves.
 */

const db = database()

type UserRow = Awaited<ReturnType<typeof createUser>>

/** The viewer a door would build from this user's session. */
function viewerOf(user: UserRow): NonNullable<Viewer> {
  return { id: user.id, email: user.email, emailVerified: user.emailVerifiedAt !== null }
}

/** What `fields` become after the door's parse, as every door calls the service. */
function fields(input: TaskInput) {
  return TaskFieldsSchema.parse(input)
}

async function taskRow(id: string) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id))
  return row
}

async function sharesOf(taskId: string) {
  const rows = await db
    .select({ email: taskShares.email })
    .from(taskShares)
    .where(eq(taskShares.taskId, taskId))
    .orderBy(asc(taskShares.email))
  return rows.map((row) => row.email)
}

async function lastEventId() {
  const [row] = await db.select({ id: max(events.id) }).from(events)
  return row?.id ?? 0
}

async function eventsAfter(id: number) {
  return db.select().from(events).where(gt(events.id, id)).orderBy(asc(events.id))
}

/** Everything a change to this task could touch: its row, its shares, every task, the event log. */
async function worldAround(taskId: string) {
  const [taskCount] = await db.select({ n: count() }).from(tasks)
  return {
    task: await taskRow(taskId),
    shares: await sharesOf(taskId),
    tasks: taskCount?.n,
    lastEvent: await lastEventId(),
  }
}

/** The error a call fails with; the test fails if it succeeds. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('Expected the call to fail, but it succeeded')
}

/** Expects `change` to be refused with `error`, leaving every row and the event log as they were. */
async function expectRefused(taskId: string, change: () => Promise<unknown>, error: Error) {
  const before = await worldAround(taskId)
  const thrown = await failure(change())
  expect(thrown).toBeInstanceOf(error.constructor)
  expect(thrown.message).toBe(error.message)
  expect(await worldAround(taskId)).toEqual(before)
  return thrown
}

const notFound = new NotFound(TASK_NOT_FOUND)
const forbidden = new Forbidden(NOT_ALLOWED)
const notYourParent = new Invalid('The parent must be one of your tasks.')

// ── The permission matrix ───────────────────────────────────────────────────

/**
 * Who may do what with which task (docs/product-rules.md §1), one row per actor and kind of task.
 *
 * Actors: the owner; a user the task is shared with who has verified that address; one who holds
 * the address but has NOT verified it (registering someone's address must not open their tasks,
 * so they are a stranger); another signed-in user; an anonymous visitor (only reads apply).
 * Tasks: private (shared with nobody); shared (private, shared with both holders of the shared
 * addresses); public (shared with nobody); public+shared (public and shared with both).
 *
 * Cells: ok; NOT_FOUND 'Task not found' for a task the actor may not see (never a hint that it
 * exists); FORBIDDEN 'Unauthorized to view this task' for a visible task the actor may not change;
 * INVALID for a subtask under someone else's task — the parent is a form field, and the answer
 * ('The parent must be one of your tasks.') is the same whether that task exists or not.
 * `list` is the group of listTaskGroups the task appears in (and whether task.getAll's
 * listVisibleTasks includes it); '-' is a cell that does not apply (anonymous visitors only read).
 */
const MATRIX = `
  actor              task           get        list    update     share      publish    setStatus  delete     subtask
  owner              private        ok         mine    ok         ok         ok         ok         ok         ok
  owner              shared         ok         mine    ok         ok         ok         ok         ok         ok
  owner              public         ok         mine    ok         ok         ok         ok         ok         ok
  owner              public+shared  ok         mine    ok         ok         ok         ok         ok         ok
  shared-verified    private        NOT_FOUND  none    NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  INVALID
  shared-verified    shared         ok         shared  FORBIDDEN  FORBIDDEN  FORBIDDEN  ok         FORBIDDEN  INVALID
  shared-verified    public         ok         public  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  INVALID
  shared-verified    public+shared  ok         shared  FORBIDDEN  FORBIDDEN  FORBIDDEN  ok         FORBIDDEN  INVALID
  shared-unverified  private        NOT_FOUND  none    NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  INVALID
  shared-unverified  shared         NOT_FOUND  none    NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  INVALID
  shared-unverified  public         ok         public  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  INVALID
  shared-unverified  public+shared  ok         public  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  INVALID
  stranger           private        NOT_FOUND  none    NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  INVALID
  stranger           shared         NOT_FOUND  none    NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  NOT_FOUND  INVALID
  stranger           public         ok         public  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  INVALID
  stranger           public+shared  ok         public  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  FORBIDDEN  INVALID
  anonymous          private        NOT_FOUND  -       -          -          -          -          -          -
  anonymous          shared         NOT_FOUND  -       -          -          -          -          -          -
  anonymous          public         ok         -       -          -          -          -          -          -
  anonymous          public+shared  ok         -       -          -          -          -          -          -
`

const ACTORS = ['owner', 'shared-verified', 'shared-unverified', 'stranger', 'anonymous'] as const
const KINDS = ['private', 'shared', 'public', 'public+shared'] as const
const CHANGES = ['update', 'share', 'publish', 'setStatus', 'delete', 'subtask'] as const
const OUTCOMES = ['ok', 'NOT_FOUND', 'FORBIDDEN', 'INVALID', '-'] as const
const LISTINGS = ['mine', 'shared', 'public', 'none', '-'] as const

type ActorName = (typeof ACTORS)[number]
type Kind = (typeof KINDS)[number]
type Change = (typeof CHANGES)[number]
type Outcome = (typeof OUTCOMES)[number]
type Listing = (typeof LISTINGS)[number]
type Cell = { actor: ActorName; kind: Kind; get: Outcome; list: Listing } & Record<Change, Outcome>

function oneOf<T extends string>(allowed: readonly T[], value: string | undefined): T {
  if (!allowed.includes(value as T)) throw new Error(`MATRIX: '${value}' is not one of ${allowed.join(', ')}`)
  return value as T
}

function readMatrix(table: string): Cell[] {
  const [, ...lines] = table.trim().split('\n')
  return lines.map((line) => {
    const [actor, kind, get, list, ...changes] = line.trim().split(/\s+/)
    return {
      actor: oneOf(ACTORS, actor),
      kind: oneOf(KINDS, kind),
      get: oneOf(OUTCOMES, get),
      list: oneOf(LISTINGS, list),
      ...(Object.fromEntries(CHANGES.map((change, i) => [change, oneOf(OUTCOMES, changes[i])])) as Record<
        Change,
        Outcome
      >),
    }
  })
}

const CELLS = readMatrix(MATRIX)

describe('the permission matrix', () => {
  const people = {} as Record<Exclude<ActorName, 'anonymous'>, UserRow>

  beforeAll(async () => {
    people.owner = await createUser(db, { name: 'Ada Owner' })
    people['shared-verified'] = await createUser(db, { name: 'Grace Shared' })
    // Holds a shared address without having proven it: must count as a stranger.
    people['shared-unverified'] = await createUser(db, { name: 'Mallory Unverified', emailVerifiedAt: null })
    people.stranger = await createUser(db, { name: 'Eve Stranger' })
  })

  function viewer(actor: ActorName): Viewer {
    return actor === 'anonymous' ? null : viewerOf(people[actor])
  }

  /** A fresh task of this kind for every cell, so a change in one cell never shapes another. */
  async function taskOf(kind: Kind) {
    const task = await insertTask(db, {
      userId: people.owner.id,
      text: `A ${kind} task`,
      isPublic: kind === 'public' || kind === 'public+shared',
    })
    if (kind === 'shared' || kind === 'public+shared') {
      await insertShares(db, task.id, [people['shared-verified'].email, people['shared-unverified'].email])
    }
    return task
  }

  test('the table covers every actor with every kind of task, once', () => {
    expect(CELLS.map((cell) => `${cell.actor} ${cell.kind}`).sort()).toEqual(
      ACTORS.flatMap((actor) => KINDS.map((kind) => `${actor} ${kind}`)).sort(),
    )
  })

  type TaskRow = Awaited<ReturnType<typeof insertTask>>
  type ChangeSpec = {
    run: (actor: NonNullable<Viewer>, task: TaskRow) => Promise<unknown>
    /** The event types an accepted change writes, in order. */
    events: string[]
    /** What the accepted change left in the rows. */
    check: (task: TaskRow) => Promise<void>
  }

  const changes: Record<Change, ChangeSpec> = {
    update: {
      run: (actor, task) => updateTask(db, actor, task.id, TaskUpdateSchema.parse({ text: 'Renamed here' })),
      events: ['task-updated'],
      check: async (task) => expect((await taskRow(task.id))?.text).toBe('Renamed here'),
    },
    share: {
      run: (actor, task) => shareTask(db, actor, task.id, ['newcomer@example.com']),
      events: ['task-updated'],
      check: async (task) => expect(await sharesOf(task.id)).toEqual(['newcomer@example.com']),
    },
    publish: {
      run: (actor, task) => updateTask(db, actor, task.id, { isPublic: !task.isPublic }),
      events: ['task-updated'],
      check: async (task) => expect((await taskRow(task.id))?.isPublic).toBe(!task.isPublic),
    },
    setStatus: {
      run: (actor, task) => setTaskStatus(db, actor, task.id, 'In Progress'),
      events: ['task-status-changed'],
      check: async (task) => expect((await taskRow(task.id))?.status).toBe('In Progress'),
    },
    delete: {
      run: (actor, task) => deleteTask(db, actor, task.id),
      events: ['task-deleted'],
      check: async (task) => expect(await taskRow(task.id)).toBeUndefined(),
    },
    subtask: {
      run: (actor, task) => createTask(db, actor, fields({ text: 'A step of it', parentTaskId: task.id })),
      events: ['task-created'],
      check: async (task) => {
        const children = await db.select().from(tasks).where(eq(tasks.parentTaskId, task.id))
        expect(children.map((child) => child.text)).toEqual(['A step of it'])
      },
    },
  }

  const refusals: Record<Exclude<Outcome, 'ok' | '-'>, Error> = {
    NOT_FOUND: notFound,
    FORBIDDEN: forbidden,
    INVALID: notYourParent,
  }

  describe.each(CELLS)('$actor × $kind task', (cell) => {
    test(`get → ${cell.get}`, async () => {
      const task = await taskOf(cell.kind)
      if (cell.get !== 'ok') {
        await expectRefused(
          task.id,
          () => getTask(db, viewer(cell.actor), task.id),
          refusals[cell.get as 'NOT_FOUND'],
        )
        return
      }
      const access = await getTask(db, viewer(cell.actor), task.id)
      expect(access.task).toMatchObject({ id: task.id, text: task.text, ownerName: 'Ada Owner' })
      // What the modal offers follows the same table.
      expect(access.canEdit).toBe(cell.update === 'ok')
      expect(access.canSetStatus).toBe(cell.setStatus === 'ok')
      expect(access.isOwner).toBe(cell.actor === 'owner')
    })

    // Anonymous visitors have no list: task.getAll answers them 401 (tests/integration/tasks-rpc.test.ts).
    if (cell.list !== '-')
      test(`list → ${cell.list}`, async () => {
        const task = await taskOf(cell.kind)
        const me = viewer(cell.actor) as NonNullable<Viewer>
        const groups = await listTaskGroups(db, me)
        const found = (['mine', 'shared', 'public'] as const).filter((group) =>
          (group === 'mine' ? groups.mine.tasks : groups[group]).some((row) => row.id === task.id),
        )
        expect(found).toEqual(cell.list === 'none' ? [] : [cell.list])
        const visible = await listVisibleTasks(db, me)
        expect(visible.some((row) => row.id === task.id)).toBe(cell.list !== 'none')
      })

    const applicable = CHANGES.filter((change) => cell[change] !== '-').map((change) => [
      change,
      cell[change],
    ])
    test.each(applicable)('%s → %s', async (change, expected) => {
      const actor = viewer(cell.actor) as NonNullable<Viewer>
      const task = await taskOf(cell.kind)
      const spec = changes[change as Change]
      if (expected !== 'ok') {
        await expectRefused(task.id, () => spec.run(actor, task), refusals[expected as 'NOT_FOUND'])
        return
      }
      const since = await lastEventId()
      await spec.run(actor, task)
      await spec.check(task)
      const written = await eventsAfter(since)
      expect(written.map((event) => event.type)).toEqual(spec.events)
      for (const event of written) expect(event.payload).toMatchObject({ userId: actor.id })
    })
  })
})

// ── Sharing with an address that signs up later ─────────────────────────────

describe('a shared address whose owner signs up later', () => {
  test('sees the task only once they have verified that address', async () => {
    const owner = await createUser(db, { name: 'Olga Owner' })
    const task = await insertTask(db, { userId: owner.id, text: 'Invite the newcomer' })
    await insertShares(db, task.id, ['late@example.com'])
    expect((await getTask(db, viewerOf(owner), task.id)).task.sharedWithNames).toEqual(['late@example.com'])

    // Signing up with the address is not proof of owning it.
    const late = await createUser(db, { email: 'late@example.com', name: 'Lena Late', emailVerifiedAt: null })
    const unproven = (await findSession(db, (await createSession(db, late.id)).token))?.user ?? null
    expect(unproven).toMatchObject({ email: 'late@example.com', emailVerified: false })
    await expectRefused(task.id, () => getTask(db, unproven, task.id), notFound)
    await expectRefused(task.id, () => setTaskStatus(db, viewerOf(late), task.id, 'Completed'), notFound)
    expect((await listTaskGroups(db, viewerOf(late))).shared).toEqual([])
    expect(await listVisibleTasks(db, viewerOf(late))).not.toContainEqual(
      expect.objectContaining({ id: task.id }),
    )
    expect((await getTask(db, viewerOf(owner), task.id)).task.sharedWithNames).toEqual(['late@example.com'])

    // The verification link from their inbox proves it.
    await requestEmailVerification(db, late.id)
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'late@example.com'))
    const token = new URL(/https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x').searchParams.get(
      'token',
    )
    const proven = await verifyEmail(db, token ?? '')
    expect(proven.emailVerified).toBe(true)

    expect((await getTask(db, proven, task.id)).isShared).toBe(true)
    expect((await listTaskGroups(db, proven)).shared.map((row) => row.id)).toEqual([task.id])
    expect((await setTaskStatus(db, proven, task.id, 'Completed')).status).toBe('Completed')
    expect((await getTask(db, viewerOf(owner), task.id)).task.sharedWithNames).toEqual(['Lena Late'])
  })
})

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
      expectNoAddress(await listTaskGroups(db, viewer))
      expectNoAddress(await listVisibleTasks(db, viewer))
    }
  })

  test('a status change by a person it is shared with answers without the addresses', async () => {
    const changed = await setTaskStatus(db, viewerOf(grace), task.id, 'In Progress')
    expect(changed).toMatchObject({ status: 'In Progress', sharedWith: [] })
    expectNoAddress(changed)
  })
})

// ── Validation at the service ───────────────────────────────────────────────

describe('validation, as a door calls the service (parse, then the service)', () => {
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
  ])('%s never reaches the service: the parse refuses it', (_, input) => {
    expect(TaskFieldsSchema.safeParse({ text: 'Edge case', ...input }).success).toBe(false)
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

  // The rows' CHECK constraints are the last line behind a door that forgot to parse; because the
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
  let eve: UserRow
  beforeAll(async () => {
    ada = await createUser(db, { name: 'Ada Parent' })
    grace = await createUser(db, { name: 'Grace Helper' })
    eve = await createUser(db, { name: 'Eve Outsider' })
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

  test('a parent shows its progress in every list; its subtasks are not rows of their own', async () => {
    const parent = await insertTask(db, { userId: ada.id, isPublic: true, text: 'Ship it' })
    await insertShares(db, parent.id, [grace.email])
    for (const status of ['Completed', 'In Progress', 'Completed', 'Not Started'] as const) {
      await insertTask(db, { userId: ada.id, parentTaskId: parent.id, status, isPublic: true })
    }
    const progress = { subtaskCount: 4, subtasksCompleted: 2 }
    expect((await getTask(db, viewerOf(ada), parent.id)).task).toMatchObject(progress)

    const adas = await listTaskGroups(db, viewerOf(ada))
    expect(adas.mine.tasks.find((row) => row.id === parent.id)).toMatchObject(progress)
    const subtaskIds = new Set((await listSubtasks(db, viewerOf(ada), parent.id)).map((row) => row.id))
    expect(subtaskIds.size).toBe(4)
    expect(adas.mine.tasks.filter((row) => subtaskIds.has(row.id))).toEqual([])
    expect(
      (await listTaskGroups(db, viewerOf(grace))).shared.find((row) => row.id === parent.id),
    ).toMatchObject(progress)
    const eves = await listTaskGroups(db, viewerOf(eve))
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
    const gracesRow = (await listTaskGroups(db, viewerOf(grace))).shared.find((row) => row.id === parent.id)
    expect(gracesRow).toMatchObject({ subtaskCount: 3, subtasksCompleted: 2 })
    const evesRow = (await listVisibleTasks(db, viewerOf(eve))).find((row) => row.id === parent.id)
    expect(evesRow).toMatchObject({ subtaskCount: 2, subtasksCompleted: 1 })
    for (const viewer of [viewerOf(ada), viewerOf(grace), viewerOf(eve), null]) {
      expect(await listSubtasks(db, viewer, parent.id)).toHaveLength((await progressFor(viewer)).subtaskCount)
    }
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
    const audience = { ownerId: ada.id, isPublic: false, sharedWith: [] }
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
          audience: { ownerId: owner.id, isPublic: true, sharedWith: ['grace@example.test'] },
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

// ── Lists ───────────────────────────────────────────────────────────────────

/**
 * The lists in a world of their own (a second database), so the groups hold exactly the tasks
 * these cases made: three users with many tasks each, mixing every visibility, status and
 * priority, checked against a plain model of the rules.
 */
describe('lists', () => {
  let scratch: Awaited<ReturnType<typeof openScratchDatabase>>
  /** The same database, counting the SQL statements each call sends. */
  let counted: Database
  const statements: string[] = []
  const people: UserRow[] = []
  /** Every viewer of the world: the people, and one who never verified their address. */
  const viewers: UserRow[] = []
  type Modelled = {
    id: string
    userId: string
    isPublic: boolean
    shares: string[]
    status: (typeof STATUSES)[number]
    priority: (typeof PRIORITIES)[number]
    createdAt: number
    parentTaskId: string | null
  }
  const world: Modelled[] = []

  beforeAll(async () => {
    scratch = await openScratchDatabase()
    await migrateDatabase(scratch.db)
    counted = drizzle(scratch.db.$client, {
      schema,
      logger: { logQuery: (query) => statements.push(query) },
    }) as Database
    const s = scratch.db
    people.push(await createUser(s, { name: 'Ada' }), await createUser(s, { name: 'Bob' }))
    people.push(await createUser(s, { name: 'Cy' }))
    // One more address holder who never verified: shares to it open nothing.
    const unverified = await createUser(s, { name: 'Uma', emailVerifiedAt: null })
    viewers.push(...people, unverified)
    const sizes = [60, 45, 30]
    const base = Date.parse('2026-01-01T00:00:00Z')
    let tick = 0
    for (const [index, owner] of people.entries()) {
      const others = people.filter((person) => person.id !== owner.id)
      for (let i = 0; i < (sizes[index] ?? 0); i++) {
        tick += 1
        const shares = [
          ...(i % 4 === 0 ? [others[0]?.email ?? ''] : []),
          ...(i % 5 === 0 ? [others[1]?.email ?? ''] : []),
          ...(i % 7 === 0 ? [unverified.email, 'stranger@example.com'] : []),
        ]
        const row = await insertTask(s, {
          userId: owner.id,
          isPublic: i % 3 === 0,
          status: STATUSES[Math.floor(i / 2) % 3],
          priority: PRIORITIES[i % 3],
          createdAt: new Date(base + tick * 1000),
        })
        await insertShares(s, row.id, shares)
        world.push({ ...row, createdAt: row.createdAt.getTime(), shares })
        // Every tenth task has a public subtask, which lists show under its parent only.
        if (i % 10 === 0) {
          tick += 1
          const child = await insertTask(s, {
            userId: owner.id,
            parentTaskId: row.id,
            isPublic: true,
            createdAt: new Date(base + tick * 1000),
          })
          world.push({ ...child, createdAt: child.createdAt.getTime(), shares: [] })
        }
      }
    }
  })

  afterAll(() => scratch.close())

  type Filters = { status?: Modelled['status']; priority?: Modelled['priority'] }

  /** The task list (docs/product-rules.md §1), written plainly: what each group should hold, newest first. */
  function expectedGroups(viewer: UserRow, filters: Filters = {}) {
    const passes = (task: Modelled) =>
      (!filters.status || task.status === filters.status) &&
      (!filters.priority || task.priority === filters.priority)
    const sharedWithMe = (task: Modelled) =>
      task.userId !== viewer.id && viewer.emailVerifiedAt !== null && task.shares.includes(viewer.email)
    const newestFirst = (a: Modelled, b: Modelled) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : 1)
    const ids = (list: Modelled[]) =>
      list
        .filter(passes)
        .sort(newestFirst)
        .map((task) => task.id)
    return {
      mine: ids(world.filter((task) => task.userId === viewer.id && task.parentTaskId === null)),
      shared: ids(world.filter(sharedWithMe)),
      public: ids(
        world.filter(
          (task) =>
            task.isPublic && task.userId !== viewer.id && task.parentTaskId === null && !sharedWithMe(task),
        ),
      ),
      visible: ids(world.filter((task) => task.userId === viewer.id || task.isPublic || sharedWithMe(task))),
    }
  }

  async function actualGroups(viewer: UserRow, filters: Filters = {}) {
    const groups = await listTaskGroups(scratch.db, viewerOf(viewer), filters, { limit: 1000, offset: 0 })
    return {
      mine: groups.mine.tasks.map((task) => task.id),
      shared: groups.shared.map((task) => task.id),
      public: groups.public.map((task) => task.id),
      visible: (await listVisibleTasks(scratch.db, viewerOf(viewer)))
        .filter(
          (task) =>
            (!filters.status || task.status === filters.status) &&
            (!filters.priority || task.priority === filters.priority),
        )
        .map((task) => task.id),
      total: groups.mine.total,
    }
  }

  test('each user sees their own, what is shared with them, and others’ public tasks, grouped', async () => {
    for (const person of people) {
      const expected = expectedGroups(person)
      const actual = await actualGroups(person)
      expect(actual).toEqual({ ...expected, total: expected.mine.length })
      // The world is mixed enough for every group to matter.
      expect(expected.shared.length).toBeGreaterThan(5)
      expect(expected.public.length).toBeGreaterThan(5)
    }
  })

  test('public leaves out my own tasks and those shared with me (they are under Shared)', async () => {
    const [ada] = people as [UserRow]
    const groups = await listTaskGroups(scratch.db, viewerOf(ada), {}, { limit: 1000, offset: 0 })
    const sharedIds = new Set(groups.shared.map((task) => task.id))
    const publicAndShared = world.filter(
      (task) => task.isPublic && task.userId !== ada.id && task.shares.includes(ada.email),
    )
    expect(publicAndShared.length).toBeGreaterThan(0)
    for (const task of publicAndShared) expect(sharedIds.has(task.id)).toBe(true)
    for (const task of groups.public) {
      expect(world.find((row) => row.id === task.id)?.userId).not.toBe(ada.id)
      expect(sharedIds.has(task.id)).toBe(false)
    }
  })

  test.each([
    { status: 'Completed' },
    { status: 'Not Started' },
    { priority: 'high' },
    { priority: 'low' },
    { status: 'In Progress', priority: 'medium' },
  ] as const)('filters every group by %o', async (filters) => {
    for (const person of people) {
      const expected = expectedGroups(person, filters)
      const { total, ...actual } = await actualGroups(person, filters)
      expect(actual).toEqual(expected)
      expect(total).toBe(expected.mine.length)
    }
  })

  test('"mine" comes in pages, newest first, with the total', async () => {
    const [ada] = people as [UserRow]
    const all = expectedGroups(ada).mine
    const seen: string[] = []
    for (let offset = 0; offset < all.length + 7; offset += 7) {
      const { mine } = await listTaskGroups(scratch.db, viewerOf(ada), {}, { limit: 7, offset })
      expect(mine.total).toBe(all.length)
      expect(mine.tasks.length).toBe(Math.max(0, Math.min(7, all.length - offset)))
      seen.push(...mine.tasks.map((task) => task.id))
    }
    expect(seen).toEqual(all)
    const filtered = await listTaskGroups(
      scratch.db,
      viewerOf(ada),
      { priority: 'high' },
      { limit: 3, offset: 0 },
    )
    expect(filtered.mine.total).toBe(expectedGroups(ada, { priority: 'high' }).mine.length)
    expect(filtered.mine.tasks.map((task) => task.id)).toEqual(
      expectedGroups(ada, { priority: 'high' }).mine.slice(0, 3),
    )
  })

  test('no query per task: the grouped list is 4 statements, task.getAll and a task 1 each', async () => {
    for (const person of people) {
      statements.length = 0
      await listTaskGroups(counted, viewerOf(person))
      expect(statements).toHaveLength(4)
      statements.length = 0
      const visible = await listVisibleTasks(counted, viewerOf(person))
      expect(visible.length).toBeGreaterThan(30)
      expect(statements).toHaveLength(1)
      statements.length = 0
      await getTask(counted, viewerOf(person), visible[0]?.id ?? '')
      expect(statements).toHaveLength(1)
    }
  })

  test('sharedWithNames: a verified user’s name, else the address; ownerName, else Unknown User', async () => {
    const s = scratch.db
    const owner = await createUser(s, { name: '' })
    const named = await createUser(s, { name: 'Nia Named', email: 'nia@example.com' })
    await createUser(s, { name: 'Una Unverified', email: 'una@example.com', emailVerifiedAt: null })
    await createUser(s, { name: '', email: 'nameless@example.com' })
    const task = await createTask(
      s,
      viewerOf(owner),
      fields({
        text: 'Who is on it',
        sharedWith: 'una@example.com, nia@example.com, zed@example.com, nameless@example.com',
      }),
    )
    expect(task.ownerName).toBe('Unknown User')
    // Sorted by address, the names line up with the addresses they stand for.
    const pairs = task.sharedWith.map((email, i) => [email, task.sharedWithNames[i]])
    expect(pairs.sort()).toEqual([
      ['nameless@example.com', 'nameless@example.com'],
      ['nia@example.com', 'Nia Named'],
      ['una@example.com', 'una@example.com'],
      ['zed@example.com', 'zed@example.com'],
    ])
    // Someone it is shared with sees the names of verified accounts only, and no address.
    const [seen] = (await listVisibleTasks(s, viewerOf(named))).filter((row) => row.id === task.id)
    expect(seen).toMatchObject({ ownerName: 'Unknown User', sharedWith: [], sharedWithNames: ['Nia Named'] })
    const [listed] = (await listTaskGroups(s, viewerOf(named))).shared.filter((row) => row.id === task.id)
    expect(listed?.ownerName).toBe('Unknown User')
    const [ada] = people as [UserRow]
    expect((await listTaskGroups(s, viewerOf(ada))).mine.tasks.every((row) => row.ownerName === 'Ada')).toBe(
      true,
    )
  })

  test('the wire shape: ISO dates, e-mails in sharedWith, the subtask progress', async () => {
    const [ada] = people as [UserRow]
    const [first] = await listVisibleTasks(scratch.db, viewerOf(ada))
    const view = first as TaskView
    expect(Object.keys(view).sort()).toEqual(
      [
        'id',
        'text',
        'details',
        'refLink',
        'priority',
        'status',
        'isPublic',
        'parentTaskId',
        'sharedWith',
        'sharedWithNames',
        'ownerName',
        'hrs',
        'userId',
        'completedAt',
        'createdAt',
        'updatedAt',
        'subtaskCount',
        'subtasksCompleted',
      ].sort(),
    )
    expect(view.createdAt).toBe(new Date(view.createdAt).toISOString())
    expect(view.updatedAt).toBe(new Date(view.updatedAt).toISOString())
    expect(typeof view.isPublic).toBe('boolean')
  })

  test('a list row carries what the row shows, and no address, date or owner id', async () => {
    const [ada] = people as [UserRow]
    const groups = await listTaskGroups(scratch.db, viewerOf(ada))
    for (const row of [...groups.mine.tasks, ...groups.shared, ...groups.public]) {
      expect(Object.keys(row).sort()).toEqual(TASK_LIST_ROW_FIELDS)
      expect(typeof row.isPublic).toBe('boolean')
      expect(typeof row.subtaskCount).toBe('number')
    }
  })

  // The statements are prepared once per filter shape and database: runs that alternate viewers,
  // shapes and pages must each get their own answer, as the plain rule and task.getAll give it.
  test.prop(
    [
      fc.nat({ max: 3 }),
      fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
      fc.option(fc.constantFrom(...PRIORITIES), { nil: undefined }),
      fc.record({ limit: fc.integer({ min: 1, max: 70 }), offset: fc.nat({ max: 70 }) }),
    ],
    { numRuns: 40 },
  )(
    'for any viewer, filters and page, the list is the rule’s, row for row as task.getAll shows it',
    async (who, status, priority, page) => {
      const viewer = viewers[who] as UserRow
      const filters = { status, priority }
      const expected = expectedGroups(viewer, filters)
      const groups = await listTaskGroups(scratch.db, viewerOf(viewer), filters, page)
      const ids = (rows: { id: string }[]) => rows.map((row) => row.id)
      expect(ids(groups.mine.tasks)).toEqual(expected.mine.slice(page.offset, page.offset + page.limit))
      expect(groups.mine.total).toBe(expected.mine.length)
      expect(ids(groups.shared)).toEqual(expected.shared)
      expect(ids(groups.public)).toEqual(expected.public)
      const seen = new Map(
        (await listVisibleTasks(scratch.db, viewerOf(viewer))).map((task) => [task.id, task]),
      )
      for (const row of [...groups.mine.tasks, ...groups.shared, ...groups.public]) {
        const task = seen.get(row.id) as TaskView
        expect(row).toEqual(Object.fromEntries(TASK_LIST_ROW_FIELDS.map((field) => [field, task[field]])))
      }
    },
  )
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
