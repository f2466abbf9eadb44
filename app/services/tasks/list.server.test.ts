import { fc, test } from '@fast-check/vitest'
import { drizzle } from 'drizzle-orm/libsql'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type Database, database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import * as schema from '~/db/schema'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import { openScratchDatabase } from '../../../tests/helpers/db'
import {
  createTeamWorkspace,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../../tests/helpers/factories'
import { planOf, statementsOf } from '../../../tests/helpers/query-plan'
import { TASK_LIST_ROW_FIELDS } from '../../../tests/helpers/task-list'
import { fields, type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { listTaskGroups } from './list.server'
import { getTask, listVisibleTasks } from './reads.server'
import type { TaskView } from './view'
import { TASK_VIEW_FIELDS } from './view-fields'
import { createTask } from './writes.server'

/**
 * The task list page's groups and task.getAll, checked against a plain model of the rules.
 */

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
    dueDate: string | null
    assigneeId: string | null
  }
  /** The viewers' today in these cases: a Wednesday, so what is due this week runs to 2026-03-15. */
  const TODAY = '2026-03-11'
  const DUE_DATES = [null, '2026-03-02', '2026-03-09', '2026-03-10', TODAY, '2026-03-15', '2026-03-16', null]
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
          dueDate: DUE_DATES[i % DUE_DATES.length],
          // Some its owner's, some a person it is shared with's (the first, when verified).
          assigneeId: i % 6 === 0 ? owner.id : i % 4 === 0 ? (others[0]?.id ?? null) : null,
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

  type Filters = {
    status?: Modelled['status']
    priority?: Modelled['priority']
    due?: 'overdue' | 'week'
    assignee?: 'me'
    sort?: 'due'
  }

  /** Whether a task passes the filters, written plainly (due dates against TODAY). */
  function filterOf(viewer: UserRow, filters: Filters) {
    const isOpen = (task: Modelled) => task.status !== 'Completed'
    const due = (task: Modelled) => task.dueDate ?? ''
    return (task: Modelled) =>
      (!filters.status || task.status === filters.status) &&
      (!filters.priority || task.priority === filters.priority) &&
      (filters.due !== 'overdue' || (task.dueDate !== null && due(task) < TODAY && isOpen(task))) &&
      (filters.due !== 'week' || (due(task) >= TODAY && due(task) <= '2026-03-15' && isOpen(task))) &&
      (!filters.assignee || task.assigneeId === viewer.id)
  }

  /** The task list (docs/product-rules.md §1), written plainly: what each group should hold, newest first. */
  function expectedGroups(viewer: UserRow, filters: Filters = {}) {
    const passes = filterOf(viewer, filters)
    const due = (task: Modelled) => task.dueDate ?? ''
    const sharedWithMe = (task: Modelled) =>
      task.userId !== viewer.id && viewer.emailVerifiedAt !== null && task.shares.includes(viewer.email)
    const newestFirst = (a: Modelled, b: Modelled) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : 1)
    const byDueDate = (a: Modelled, b: Modelled) =>
      Number(a.dueDate === null) - Number(b.dueDate === null) ||
      due(a).localeCompare(due(b)) ||
      newestFirst(a, b)
    const ids = (list: Modelled[]) =>
      list
        .filter(passes)
        .sort(filters.sort === 'due' ? byDueDate : newestFirst)
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
      // task.getAll's order is always newest first.
      visible: world
        .filter((task) => (task.userId === viewer.id || task.isPublic || sharedWithMe(task)) && passes(task))
        .sort(newestFirst)
        .map((task) => task.id),
    }
  }

  async function actualGroups(viewer: UserRow, filters: Filters = {}) {
    const groups = await listTaskGroups(
      scratch.db,
      viewerOf(viewer),
      personalWorkspaceId(viewerOf(viewer)),
      filters,
      { limit: 1000, offset: 0 },
      TODAY,
    )
    const passes = filterOf(viewer, filters)
    const modelOf = new Map(world.map((task) => [task.id, task]))
    return {
      mine: groups.mine.tasks.map((task) => task.id),
      shared: groups.shared.map((task) => task.id),
      public: groups.public.map((task) => task.id),
      // task.getAll has no filters: filtered here as the model filters, in its own order.
      visible: (await listVisibleTasks(scratch.db, viewerOf(viewer)))
        .filter((task) => {
          const modelled = modelOf.get(task.id)
          return modelled !== undefined && passes(modelled)
        })
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
    const groups = await listTaskGroups(
      scratch.db,
      viewerOf(ada),
      personalWorkspaceId(viewerOf(ada)),
      {},
      { limit: 1000, offset: 0 },
    )
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
    { due: 'overdue' },
    { due: 'week' },
    { assignee: 'me' },
    { due: 'week', assignee: 'me' },
    { due: 'overdue', priority: 'high' },
    { sort: 'due' },
    { sort: 'due', assignee: 'me' },
    { status: 'Completed', due: 'week' },
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
      const { mine } = await listTaskGroups(
        scratch.db,
        viewerOf(ada),
        personalWorkspaceId(viewerOf(ada)),
        {},
        { limit: 7, offset },
      )
      expect(mine.total).toBe(all.length)
      expect(mine.tasks.length).toBe(Math.max(0, Math.min(7, all.length - offset)))
      seen.push(...mine.tasks.map((task) => task.id))
    }
    expect(seen).toEqual(all)
    const filtered = await listTaskGroups(
      scratch.db,
      viewerOf(ada),
      personalWorkspaceId(viewerOf(ada)),
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
      await listTaskGroups(counted, viewerOf(person), personalWorkspaceId(viewerOf(person)))
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
    const [listed] = (
      await listTaskGroups(s, viewerOf(named), personalWorkspaceId(viewerOf(named)))
    ).shared.filter((row) => row.id === task.id)
    expect(listed?.ownerName).toBe('Unknown User')
    const [ada] = people as [UserRow]
    expect(
      (await listTaskGroups(s, viewerOf(ada), personalWorkspaceId(viewerOf(ada)))).mine.tasks.every(
        (row) => row.ownerName === 'Ada',
      ),
    ).toBe(true)
  })

  test('the wire shape: ISO dates, e-mails in sharedWith, the subtask progress', async () => {
    const [ada] = people as [UserRow]
    const [first] = await listVisibleTasks(scratch.db, viewerOf(ada))
    const view = first as TaskView
    expect(Object.keys(view).sort()).toEqual([...TASK_VIEW_FIELDS].sort())
    expect(view.createdAt).toBe(new Date(view.createdAt).toISOString())
    expect(view.updatedAt).toBe(new Date(view.updatedAt).toISOString())
    expect(typeof view.isPublic).toBe('boolean')
  })

  test('a list row carries what the row shows, and no address, date or owner id', async () => {
    const [ada] = people as [UserRow]
    const groups = await listTaskGroups(scratch.db, viewerOf(ada), personalWorkspaceId(viewerOf(ada)))
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
      const groups = await listTaskGroups(
        scratch.db,
        viewerOf(viewer),
        personalWorkspaceId(viewerOf(viewer)),
        filters,
        page,
      )
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

// ── The workspace the viewer works in ──────────────────────────────────────

describe('the first group is the tasks of the workspace the viewer works in', () => {
  const db = database()

  async function team() {
    const ada = await createUser(db, { name: 'Ada' })
    const bob = await createUser(db, { name: 'Bob' })
    const stranger = await createUser(db, { name: 'Cy' })
    const acme = await createTeamWorkspace(db, {
      ownerId: ada.id,
      members: [{ userId: bob.id, role: 'member' }],
    })
    const byBob = await insertTask(db, { userId: bob.id, workspaceId: acme.id, text: 'Bob’s team task' })
    const byAda = await insertTask(db, { userId: ada.id, workspaceId: acme.id, text: 'Ada’s team task' })
    await insertTask(db, {
      userId: ada.id,
      workspaceId: acme.id,
      parentTaskId: byAda.id,
      text: 'A team subtask',
    })
    const personal = await insertTask(db, { userId: ada.id, text: 'Ada’s own task' })
    return { ada, bob, stranger, acme, byBob, byAda, personal }
  }
  const texts = (rows: { text: string }[]) => rows.map((row) => row.text)

  test('a team workspace: every member’s top-level tasks, and none of the viewer’s personal ones', async () => {
    const { ada, bob, acme } = await team()
    const inTeam = await listTaskGroups(db, viewerOf(ada), acme.id)
    expect(texts(inTeam.mine.tasks)).toEqual(['Ada’s team task', 'Bob’s team task'])
    expect(inTeam.mine.total).toBe(2)
    expect((await listTaskGroups(db, viewerOf(bob), acme.id)).mine.tasks).toEqual(inTeam.mine.tasks)
    // Working in the personal workspace, the team's tasks are not listed, as mine or otherwise.
    const personal = await listTaskGroups(db, viewerOf(ada), personalWorkspaceId(ada))
    expect(texts(personal.mine.tasks)).toEqual(['Ada’s own task'])
    const elsewhere = [...personal.shared, ...personal.public].map((row) => row.id)
    expect(elsewhere).not.toContain(inTeam.mine.tasks[0]?.id)
  })

  test('shared with me and public stay as they are, whichever workspace is active', async () => {
    const { ada, stranger, acme, byBob } = await team()
    const theirs = await insertTask(db, { userId: stranger.id, text: 'Shared from outside' })
    await insertShares(db, theirs.id, [ada.email])
    const open = await insertTask(db, { userId: stranger.id, text: 'Open to all', isPublic: true })
    const inTeam = await listTaskGroups(db, viewerOf(ada), acme.id)
    const inPersonal = await listTaskGroups(db, viewerOf(ada), personalWorkspaceId(ada))
    for (const groups of [inTeam, inPersonal]) {
      expect(groups.shared.map((row) => row.id)).toContain(theirs.id)
      expect(groups.public.map((row) => row.id)).toContain(open.id)
      expect(groups.public.map((row) => row.id)).not.toContain(byBob.id)
    }
  })

  test('a workspace the viewer is not in lists nothing as theirs', async () => {
    const { stranger, acme } = await team()
    const groups = await listTaskGroups(db, viewerOf(stranger), acme.id)
    expect(groups.mine).toEqual({ tasks: [], total: 0 })
  })

  test('the group and its count ride the workspace’s indexes, not a scan of tasks', async () => {
    const { ada, acme } = await team()
    for (let i = 0; i < 20; i++) await insertTask(db)
    const sent = await statementsOf(db, () => listTaskGroups(db, viewerOf(ada), acme.id))
    const ofWorkspace = sent.filter(
      (statement) =>
        typeof statement !== 'string' && Array.isArray(statement.args) && statement.args.includes(acme.id),
    )
    expect(ofWorkspace).toHaveLength(2)
    for (const statement of ofWorkspace) {
      const plan = await planOf(db, statement)
      expect(plan.filter((step) => /^SCAN tasks\b/.test(step))).toEqual([])
      expect(plan.some((step) => /SEARCH tasks USING (COVERING )?INDEX tasks_workspace_/.test(step))).toBe(
        true,
      )
    }
  })
})
