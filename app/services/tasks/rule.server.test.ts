import { test } from '@fast-check/vitest'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, tasks } from '~/db/schema'
import { requestEmailVerification, verifyEmail } from '~/services/accounts.server'
import type { Actor, Viewer } from '~/services/session-user'
import { createSession, findSession } from '~/services/sessions.server'
import { TaskUpdateSchema } from '~/services/tasks/task-schemas'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import {
  addMember,
  createTeamWorkspace,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
  removeMember,
} from '../../../tests/helpers/factories'
import {
  eventsAfter,
  expectRefused,
  fields,
  forbidden,
  lastEventId,
  notFound,
  notYourParent,
  sharesOf,
  taskRow,
  type UserRow,
  viewerOf,
} from '../../../tests/helpers/task-service'
import { listTaskGroups } from './list.server'
import { getTask, listVisibleTasks } from './reads.server'
import { createTask, deleteTask, setTaskStatus, shareTask, updateTask } from './writes.server'

/**
 * Who may see and change which task: the permission matrix of docs/product-rules.md §1, run
 * through the service, each change checked in the rows and the event log it leaves.
 */

const db = database()

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
    run: (actor: Actor, task: TaskRow) => Promise<unknown>
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
      expect(access.may.change).toBe(cell.update === 'ok')
      expect(access.may.setStatus).toBe(cell.setStatus === 'ok')
      expect(access.may.change).toBe(cell.actor === 'owner')
    })

    // Anonymous visitors have no list: task.getAll answers them 401 (tests/integration/tasks-rpc.test.ts).
    if (cell.list !== '-')
      test(`list → ${cell.list}`, async () => {
        const task = await taskOf(cell.kind)
        const me = viewer(cell.actor) as Actor
        const groups = await listTaskGroups(db, me, personalWorkspaceId(me))
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
      const actor = viewer(cell.actor) as Actor
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
    expect((await listTaskGroups(db, viewerOf(late), personalWorkspaceId(viewerOf(late)))).shared).toEqual([])
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

    expect((await getTask(db, proven, task.id)).may.sharedWith).toBe(true)
    expect(
      (await listTaskGroups(db, proven, personalWorkspaceId(proven))).shared.map((row) => row.id),
    ).toEqual([task.id])
    expect((await setTaskStatus(db, proven, task.id, 'Completed')).status).toBe('Completed')
    expect((await getTask(db, viewerOf(owner), task.id)).task.sharedWithNames).toEqual(['Lena Late'])
  })
})

// ── In a team's workspace ───────────────────────────────────────────────────

/**
 * The same rules where a workspace has several members (docs/product-rules.md §1): Tom owns the
 * team, Ada administers it, Carl and Mia are members, Flo joins and is removed, Gina is
 * a guest (a task is shared with her verified address). Every member edits; the creator while a
 * member, the owner and the admins delete; a guest moves it along only.
 */
describe("in a team's workspace", () => {
  const team = {} as Record<'tom' | 'ada' | 'carl' | 'mia' | 'gina', UserRow>
  let teamId = ''

  beforeAll(async () => {
    for (const [key, name] of [
      ['tom', 'Tom Owner'],
      ['ada', 'Ada Admin'],
      ['carl', 'Carl Creator'],
      ['mia', 'Mia Member'],
      ['gina', 'Gina Guest'],
    ] as const) {
      team[key] = await createUser(db, { name })
    }
    teamId = (
      await createTeamWorkspace(db, {
        ownerId: team.tom.id,
        members: [
          { userId: team.ada.id, role: 'admin' },
          { userId: team.carl.id, role: 'member' },
          { userId: team.mia.id, role: 'member' },
        ],
      })
    ).id
  })

  async function carlsTask() {
    const task = await insertTask(db, { userId: team.carl.id, workspaceId: teamId, text: 'Plan the offsite' })
    await insertShares(db, task.id, [team.gina.email])
    return task
  }

  test('a member who did not create it edits and shares it, but may not delete it', async () => {
    const task = await carlsTask()
    const mia = viewerOf(team.mia)
    await updateTask(db, mia, task.id, TaskUpdateSchema.parse({ text: 'Plan the offsite, v2' }))
    expect((await taskRow(task.id))?.text).toBe('Plan the offsite, v2')
    await shareTask(db, mia, task.id, [team.gina.email, 'caterer@example.com'])
    expect(await sharesOf(task.id)).toEqual(['caterer@example.com', team.gina.email])
    await expectRefused(task.id, () => deleteTask(db, mia, task.id), forbidden)
  })

  test.each([
    ['its creator', 'carl'],
    ['the owner', 'tom'],
    ['an admin', 'ada'],
  ] as const)('%s deletes it', async (_, who) => {
    const task = await carlsTask()
    await deleteTask(db, viewerOf(team[who]), task.id)
    expect(await taskRow(task.id)).toBeUndefined()
  })

  test('its guest moves it along, and may neither edit nor delete it', async () => {
    const task = await carlsTask()
    const gina = viewerOf(team.gina)
    expect((await setTaskStatus(db, gina, task.id, 'In Progress')).status).toBe('In Progress')
    await expectRefused(
      task.id,
      () => updateTask(db, gina, task.id, TaskUpdateSchema.parse({ text: 'Mine now' })),
      forbidden,
    )
    await expectRefused(task.id, () => deleteTask(db, gina, task.id), forbidden)
  })

  test('a member removed from the team is told their own task there does not exist', async () => {
    const former = await createUser(db, { name: 'Flo Former' })
    await addMember(db, teamId, former.id, 'member')
    const task = await insertTask(db, { userId: former.id, workspaceId: teamId, text: 'Flo’s notes' })
    expect((await getTask(db, viewerOf(former), task.id)).may.delete).toBe(true)
    await removeMember(db, teamId, former.id)
    const flo = viewerOf(former)
    await expectRefused(task.id, () => getTask(db, flo, task.id), notFound)
    await expectRefused(
      task.id,
      () => updateTask(db, flo, task.id, TaskUpdateSchema.parse({ text: 'Still mine?' })),
      notFound,
    )
    await expectRefused(task.id, () => setTaskStatus(db, flo, task.id, 'Completed'), notFound)
    await expectRefused(task.id, () => deleteTask(db, flo, task.id), notFound)
    expect((await listVisibleTasks(db, flo)).map((row) => row.id)).not.toContain(task.id)
    // The team still has it: its admin deletes it.
    await deleteTask(db, viewerOf(team.ada), task.id)
    expect(await taskRow(task.id)).toBeUndefined()
  })
})
