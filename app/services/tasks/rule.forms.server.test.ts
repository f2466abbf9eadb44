import { and, count, eq, sql } from 'drizzle-orm'
import { alias, QueryBuilder } from 'drizzle-orm/sqlite-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { NotFound } from '~/services/errors'
import { mentionableUsers } from '~/services/mentions.server'
import type { Viewer } from '~/services/session-user'
import { readAudiences } from '~/services/tasks/audience.server'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import {
  createTeamWorkspace,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
  removeMember,
} from '../../../tests/helpers/factories'
import { type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { listTaskGroups } from './list.server'
import { canSeeTask, getTask, listVisibleTasks } from './reads.server'
import {
  isTaskVisibleSql,
  mayCommentSql,
  permissionsOf,
  personInSql,
  ruleHolds,
  ruleOnTaskSql,
  ruleOverAudienceSql,
  ruleSql,
  TASK_RULES,
  type TaskRule,
  viewerParams,
  viewerPlaceholders,
  viewerValues,
  visibilityParams,
} from './rule.server'

/**
 * Every form of every task rule (rule.server.ts) — SQL for one task, for a list, on an alias as
 * inside the subtask progress, as the guard of a write, bound now or as placeholders, and in memory
 * as event streams decide — run over two grids of viewers × tasks (a personal workspace's, a
 * team's), against the real database, and held to one table each. A form that drifts from the others fails here, cell by cell.
 */

const db = database()

const KINDS = ['private', 'shared', 'public', 'public+shared'] as const
type Kind = (typeof KINDS)[number]
/** Every kind of task as a top-level task and as a subtask, and one that was deleted. */
type Place = `${Kind}` | `subtask of ${Kind}` | 'deleted'

/** The viewers of the tasks in someone's personal workspace, and of those in a team's. */
const PERSONAL_VIEWERS = ['owner', 'shared-verified', 'shared-unverified', 'stranger', 'anonymous'] as const
const TEAM_VIEWERS = [
  'team-owner',
  'team-admin',
  'team-creator',
  'team-member',
  'former-member',
  'guest',
  'unverified-sharee',
  'stranger',
  'anonymous',
] as const
type ViewerName = (typeof PERSONAL_VIEWERS)[number] | (typeof TEAM_VIEWERS)[number]
type Person = Exclude<ViewerName, 'anonymous'>

/**
 * docs/product-rules.md §1, one row per viewer and kind of task in a personal workspace: Olive's
 * own. A "shared" task is shared with the addresses of both sharees; only the verified one counts.
 * A subtask follows the same row as a task of its kind; a deleted task is nobody's to see.
 */
const TABLE = `
  viewer             kind           see  setStatus  change  delete  comment  sharedWith  publicToThem  beAssigned  seeShares  mentionOwner  mentionSharedWith  mentionMembers  mentionDiscussion
  owner              private        yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  owner              shared         yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  owner              public         yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  owner              public+shared  yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  shared-verified    private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  shared-verified    shared         yes  yes        no      no      yes      yes         no            yes         no         yes           no                 no              no
  shared-verified    public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  shared-verified    public+shared  yes  yes        no      no      yes      yes         no            yes         no         no            no                 no              no
  shared-unverified  private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  shared-unverified  shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  shared-unverified  public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  shared-unverified  public+shared  yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  stranger           private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  stranger           shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  stranger           public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  stranger           public+shared  yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  anonymous          private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  anonymous          shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  anonymous          public         yes  no         no      no      no       no          yes           no          no         no            no                 no              no
  anonymous          public+shared  yes  no         no      no      no       no          yes           no          no         no            no                 no              no
`

/**
 * The same for the tasks of a team's workspace: Tom owns it, Ada administers it, Carl (a member)
 * created every task, Mia is a member who did not, Fred was a member until his membership row was
 * deleted. A "shared" task is shared with Gina (verified, not in the workspace: its guest) and Uma
 * (unverified). Every member sees, edits and mentions the members; only the owner, the admins and
 * the creator delete.
 */
const TEAM_TABLE = `
  viewer             kind           see  setStatus  change  delete  comment  sharedWith  publicToThem  beAssigned  seeShares  mentionOwner  mentionSharedWith  mentionMembers  mentionDiscussion
  team-owner         private        yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-owner         shared         yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-owner         public         yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-owner         public+shared  yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-admin         private        yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-admin         shared         yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-admin         public         yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-admin         public+shared  yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-creator       private        yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-creator       shared         yes  yes        yes     yes     yes      no          no            yes         yes        no            yes                yes             no
  team-creator       public         yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-creator       public+shared  yes  yes        yes     yes     yes      no          no            yes         yes        no            no                 no              no
  team-member        private        yes  yes        yes     no      yes      no          no            yes         yes        no            yes                yes             no
  team-member        shared         yes  yes        yes     no      yes      no          no            yes         yes        no            yes                yes             no
  team-member        public         yes  yes        yes     no      yes      no          no            yes         yes        no            no                 no              no
  team-member        public+shared  yes  yes        yes     no      yes      no          no            yes         yes        no            no                 no              no
  former-member      private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  former-member      shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  former-member      public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  former-member      public+shared  yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  guest              private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  guest              shared         yes  yes        no      no      yes      yes         no            yes         no         yes           yes                no              yes
  guest              public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  guest              public+shared  yes  yes        no      no      yes      yes         no            yes         no         no            no                 no              no
  unverified-sharee  private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  unverified-sharee  shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  unverified-sharee  public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  unverified-sharee  public+shared  yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  stranger           private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  stranger           shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  stranger           public         yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  stranger           public+shared  yes  no         no      no      yes      no          yes           no          no         no            no                 no              no
  anonymous          private        no   no         no      no      no       no          no            no          no         no            no                 no              no
  anonymous          shared         no   no         no      no      no       no          no            no          no         no            no                 no              no
  anonymous          public         yes  no         no      no      no       no          yes           no          no         no            no                 no              no
  anonymous          public+shared  yes  no         no      no      no       no          yes           no          no         no            no                 no              no
`

const RULES = Object.keys(TASK_RULES) as TaskRule[]

function readTable(table: string) {
  const [header, ...lines] = table.trim().split('\n')
  const columns = header?.trim().split(/\s+/).slice(2) ?? []
  const expected = new Map<string, Record<TaskRule, boolean>>()
  for (const line of lines) {
    const [viewer, kind, ...cells] = line.trim().split(/\s+/)
    expected.set(
      `${viewer} ${kind}`,
      Object.fromEntries(columns.map((rule, i) => [rule, cells[i] === 'yes'])) as Record<TaskRule, boolean>,
    )
  }
  return { columns, expected }
}

/** One grid: the tasks of one workspace, every kind and place, and the viewers its table names. */
type Grid = {
  viewers: readonly ViewerName[]
  columns: string[]
  expected: Map<string, Record<TaskRule, boolean>>
  places: Record<Place, string>
  parentId: string
}

const GRIDS: Record<'personal' | 'team', Grid> = {
  personal: {
    viewers: PERSONAL_VIEWERS,
    ...readTable(TABLE),
    places: {} as Record<Place, string>,
    parentId: '',
  },
  team: {
    viewers: TEAM_VIEWERS,
    ...readTable(TEAM_TABLE),
    places: {} as Record<Place, string>,
    parentId: '',
  },
}
const GRID_NAMES = Object.keys(GRIDS) as (keyof typeof GRIDS)[]

function expectedOf(grid: Grid, viewer: ViewerName, place: Place, rule: TaskRule) {
  if (place === 'deleted') return false
  const kind = place.replace('subtask of ', '')
  return grid.expected.get(`${viewer} ${kind}`)?.[rule] as boolean
}

const people = {} as Record<Person, UserRow>

function viewerNamed(name: ViewerName): Viewer {
  return name === 'anonymous' ? null : viewerOf(people[name])
}

/** A parent and every kind of task at every place, created by `creator` in `workspaceId`. */
async function buildGrid(grid: Grid, creator: UserRow, workspaceId: string, sharees: UserRow[]) {
  // Public, so every viewer reads the progress of its subtasks.
  grid.parentId = (
    await insertTask(db, { userId: creator.id, workspaceId, isPublic: true, text: 'The parent' })
  ).id
  const make = async (kind: Kind, parentTaskId?: string) => {
    const task = await insertTask(db, {
      userId: creator.id,
      workspaceId,
      isPublic: kind.startsWith('public'),
      parentTaskId,
    })
    if (kind.endsWith('shared')) {
      await insertShares(
        db,
        task.id,
        sharees.map((sharee) => sharee.email),
      )
    }
    return task.id
  }
  for (const kind of KINDS) {
    grid.places[kind] = await make(kind)
    grid.places[`subtask of ${kind}`] = await make(kind, grid.parentId)
  }
  grid.places.deleted = await make('public+shared')
  await db.delete(tasks).where(eq(tasks.id, grid.places.deleted))
}

beforeAll(async () => {
  people.owner = await createUser(db, { name: 'Olive Owner' })
  people['shared-verified'] = await createUser(db, { name: 'Vera Verified' })
  people['shared-unverified'] = await createUser(db, { name: 'Una Unverified', emailVerifiedAt: null })
  people.stranger = await createUser(db, { name: 'Sam Stranger' })
  people['team-owner'] = await createUser(db, { name: 'Tom Owner' })
  people['team-admin'] = await createUser(db, { name: 'Ada Admin' })
  people['team-creator'] = await createUser(db, { name: 'Carl Creator' })
  people['team-member'] = await createUser(db, { name: 'Mia Member' })
  people['former-member'] = await createUser(db, { name: 'Fred Former' })
  people.guest = await createUser(db, { name: 'Gina Guest' })
  people['unverified-sharee'] = await createUser(db, { name: 'Uma Unverified', emailVerifiedAt: null })
  await buildGrid(GRIDS.personal, people.owner, people.owner.id, [
    people['shared-verified'],
    people['shared-unverified'],
  ])
  const team = await createTeamWorkspace(db, {
    ownerId: people['team-owner'].id,
    members: [
      { userId: people['team-admin'].id, role: 'admin' },
      { userId: people['team-creator'].id, role: 'member' },
      { userId: people['team-member'].id, role: 'member' },
      { userId: people['former-member'].id, role: 'member' },
    ],
  })
  await buildGrid(GRIDS.team, people['team-creator'], team.id, [people.guest, people['unverified-sharee']])
  await removeMember(db, team.id, people['former-member'].id)
})

const other = alias(tasks, 'other')

/** Each form answers whether `rule` lets `viewer` at the task `taskId`. */
const FORMS: Record<string, (rule: TaskRule, viewer: Viewer, taskId: string) => Promise<boolean>> = {
  'one task, bound': async (rule, viewer, taskId) => {
    const [row] = await db
      .select({ holds: ruleOnTaskSql(rule, viewerValues(viewer), taskId) })
      .from(sql`(SELECT 1)`)
    return Number(row?.holds) === 1
  },
  'one task, placeholders (prepared)': async (rule, viewer, taskId) => {
    const probe = db
      .select({ holds: ruleOnTaskSql(rule, viewerPlaceholders, sql.placeholder('taskId')) })
      .from(sql`(SELECT 1)`)
      .prepare()
    const [row] = await probe.all(visibilityParams(viewer, taskId))
    return Number(row?.holds) === 1
  },
  'list on tasks, bound': async (rule, viewer, taskId) => {
    const rows = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(ruleSql(rule, viewerValues(viewer)))
    return rows.some((row) => row.id === taskId)
  },
  'list on tasks, placeholders (prepared)': async (rule, viewer, taskId) => {
    const list = db.select({ id: tasks.id }).from(tasks).where(ruleSql(rule, viewerPlaceholders)).prepare()
    return (await list.all(viewerParams(viewer))).some((row) => row.id === taskId)
  },
  'on an alias, correlated as the subtask progress is': async (rule, viewer, taskId) => {
    const [row] = await db
      .select({
        holds: sql<number>`${new QueryBuilder()
          .select({ n: count() })
          .from(other)
          .where(and(eq(other.id, tasks.id), ruleSql(rule, viewerValues(viewer), other)))}`,
      })
      .from(tasks)
      .where(eq(tasks.id, taskId))
    return Number(row?.holds) === 1
  },
  'on an alias, placeholders (prepared)': async (rule, viewer, taskId) => {
    const list = db
      .select({ id: other.id })
      .from(other)
      .where(ruleSql(rule, viewerPlaceholders, other))
      .prepare()
    return (await list.all(viewerParams(viewer))).some((row) => row.id === taskId)
  },
  'guard of a write (EXISTS)': async (rule, viewer, taskId) => {
    const touched = await db
      .update(tasks)
      .set({ text: sql`${tasks.text}` })
      .where(and(eq(tasks.id, taskId), ruleOnTaskSql(rule, viewerValues(viewer), taskId)))
      .returning({ id: tasks.id })
    return touched.length === 1
  },
  'a person by id, their address read from users (personInSql, as assignments apply it)': async (
    rule,
    viewer,
    taskId,
  ) => {
    const [row] = await db
      .select({ holds: ruleOnTaskSql(rule, personInSql(viewer ? viewer.id : sql`NULL`), taskId) })
      .from(sql`(SELECT 1)`)
    return Number(row?.holds) === 1
  },
  'over the audience a write will leave, a person read from users (ruleOverAudienceSql)': async (
    rule,
    viewer,
    taskId,
  ) => {
    const audience = (await readAudiences(db, [taskId])).get(taskId)
    if (!audience) return false
    const [row] = await db
      .select({ holds: ruleOverAudienceSql(rule, audience, personInSql(viewer ? viewer.id : sql`NULL`)) })
      .from(sql`(SELECT 1)`)
    return Number(row?.holds) === 1
  },
  'in memory, over the audience streams read': async (rule, viewer, taskId) => {
    const audience = (await readAudiences(db, [taskId])).get(taskId)
    return audience !== undefined && ruleHolds(rule, audience, viewer)
  },
  'in memory, every rule at once (permissionsOf, as getTask and the mention scope carry them)': async (
    rule,
    viewer,
    taskId,
  ) => {
    const audience = (await readAudiences(db, [taskId])).get(taskId)
    return audience !== undefined && permissionsOf(audience, viewer)[rule]
  },
}

const PLACES = [...KINDS, ...KINDS.map((kind) => `subtask of ${kind}` as const), 'deleted'] as Place[]

/** Every grid's viewers with it, for `describe.each`. */
const VIEWERS_OF = GRID_NAMES.flatMap((name) => GRIDS[name].viewers.map((viewer) => [name, viewer] as const))

test.each(GRID_NAMES)(
  'the %s table names every rule, and covers every viewer with every kind of task once',
  (name) => {
    const { columns, expected, viewers } = GRIDS[name]
    expect([...columns].sort()).toEqual([...RULES].sort())
    expect([...expected.keys()].sort()).toEqual(viewers.flatMap((v) => KINDS.map((k) => `${v} ${k}`)).sort())
  },
)

describe.each(RULES)('rule %s', (rule) => {
  test.each(Object.keys(FORMS))('%s: every viewer × task of both grids as the tables say', async (form) => {
    const answers: string[] = []
    const wanted: string[] = []
    for (const name of GRID_NAMES) {
      const grid = GRIDS[name]
      for (const viewer of grid.viewers) {
        for (const place of PLACES) {
          const holds = await FORMS[form]?.(rule, viewerNamed(viewer), grid.places[place])
          answers.push(`${name}: ${viewer} × ${place}: ${holds ? 'yes' : 'no'}`)
          wanted.push(
            `${name}: ${viewer} × ${place}: ${expectedOf(grid, viewer, place, rule) ? 'yes' : 'no'}`,
          )
        }
      }
    }
    expect(answers).toEqual(wanted)
  })
})

describe('the services apply the same rules', () => {
  test.each(VIEWERS_OF)(
    '%s, %s: canSeeTask, getTask and its permissions, and the named probes',
    async (of, name) => {
      const grid = GRIDS[of]
      const viewer = viewerNamed(name)
      for (const place of PLACES) {
        const taskId = grid.places[place]
        const see = expectedOf(grid, name, place, 'see')
        expect(await canSeeTask(db, viewer, taskId), `${name} × ${place}`).toBe(see)
        const [probe] = await db
          .select({ see: isTaskVisibleSql, comment: mayCommentSql })
          .from(sql`(SELECT 1)`)
          .all(visibilityParams(viewer, taskId))
        expect([Number(probe?.see) === 1, Number(probe?.comment) === 1]).toEqual([
          see,
          expectedOf(grid, name, place, 'comment'),
        ])
        const access = await getTask(db, viewer, taskId).catch((error: unknown) => {
          if (error instanceof NotFound) return null
          throw error
        })
        expect(access !== null).toBe(see)
        if (access) {
          expect(access.may, `${name} × ${place}: getTask's permissions`).toEqual(
            Object.fromEntries(RULES.map((rule) => [rule, expectedOf(grid, name, place, rule)])),
          )
        }
      }
    },
  )

  test.each(VIEWERS_OF)(
    '%s, %s: the progress of a parent counts the subtasks they may see',
    async (of, name) => {
      const grid = GRIDS[of]
      const viewer = viewerNamed(name)
      const visibleSubtasks = KINDS.filter((kind) =>
        expectedOf(grid, name, `subtask of ${kind}`, 'see'),
      ).length
      expect((await getTask(db, viewer, grid.parentId)).task.subtaskCount).toBe(visibleSubtasks)
      if (!viewer) return
      const groups = await listTaskGroups(db, viewer, personalWorkspaceId(viewer))
      const row = [...groups.mine.tasks, ...groups.shared, ...groups.public].find(
        (task) => task.id === grid.parentId,
      )
      // A team's public parent is in none of a member's groups but its creator's.
      if (of === 'personal' || row) expect(row?.subtaskCount).toBe(visibleSubtasks)
    },
  )

  test.each(VIEWERS_OF.filter(([, name]) => name !== 'anonymous'))(
    '%s, %s: task.getAll and the list groups follow see, change, sharedWith and publicToThem',
    async (of, name) => {
      const grid = GRIDS[of]
      const viewer = viewerOf(people[name as Person])
      const visible = new Set((await listVisibleTasks(db, viewer)).map((task) => task.id))
      const groups = await listTaskGroups(
        db,
        viewer,
        personalWorkspaceId(viewer),
        {},
        { limit: 1000, offset: 0 },
      )
      const ids = (rows: { id: string }[]) => new Set(rows.map((row) => row.id))
      const [mine, shared, publicTasks] = [ids(groups.mine.tasks), ids(groups.shared), ids(groups.public)]
      for (const place of PLACES) {
        const taskId = grid.places[place]
        const isTopLevel = !place.startsWith('subtask')
        expect(visible.has(taskId), `${name} × ${place} in task.getAll`).toBe(
          expectedOf(grid, name, place, 'see'),
        )
        // Which of a team's tasks "mine" lists is the list's own choice (list.server.ts).
        if (of === 'personal') {
          expect(mine.has(taskId), `${name} × ${place} in mine`).toBe(
            isTopLevel && expectedOf(grid, name, place, 'change'),
          )
        }
        expect(shared.has(taskId), `${name} × ${place} in shared`).toBe(
          expectedOf(grid, name, place, 'sharedWith'),
        )
        expect(publicTasks.has(taskId), `${name} × ${place} in public`).toBe(
          isTopLevel && expectedOf(grid, name, place, 'publicToThem'),
        )
      }
    },
  )
})

const TEAM_MEMBERS = ['team-owner', 'team-admin', 'team-creator', 'team-member'] as const
const othersOf = (name: Person) => TEAM_MEMBERS.filter((member) => member !== name)

/**
 * Who may mention whom (mentions.server.ts, by the rules `mentionOwner`, `mentionSharedWith`,
 * `mentionMembers` and `mentionDiscussion` above). In Olive's workspace: she, the verified people a
 * task is shared with; one of those, her; nobody on a public task. In the team's: a member, the
 * other members and the verified guest; the guest, the creator (the grid's tasks have no assignee
 * and no comments: mentions.server.test.ts holds those). Every other pair: nobody.
 */
const MENTIONS: Record<string, readonly Person[]> = {
  'personal owner shared': ['shared-verified'],
  'personal shared-verified shared': ['owner'],
  ...Object.fromEntries(
    TEAM_MEMBERS.flatMap((member) => [
      [`team ${member} private`, othersOf(member)],
      [`team ${member} shared`, [...othersOf(member), 'guest']],
    ]),
  ),
  'team guest shared': ['team-creator'],
}

describe('who may mention whom', () => {
  test.each(VIEWERS_OF)(
    '%s, %s: the statements and the rule in memory agree with the table',
    async (of, by) => {
      const grid = GRIDS[of]
      const viewer = viewerNamed(by)
      const mentioned = grid.viewers.filter((name): name is Person => name !== 'anonymous')
      for (const place of PLACES.filter((place) => place !== 'deleted')) {
        const kind = place.replace('subtask of ', '')
        const wanted = [...(MENTIONS[`${of} ${by} ${kind}`] ?? [])].sort()
        const taskId = grid.places[place]
        const fromSql = await mentionableUsers(db, viewer, taskId).catch((error: unknown) => {
          if (error instanceof NotFound) return []
          throw error
        })
        const byId = new Map(mentioned.map((name) => [people[name].id, name]))
        expect(fromSql.map((user) => byId.get(user.id)).sort(), `${by} × ${place} in SQL`).toEqual(wanted)
        const audience = (await readAudiences(db, [taskId])).get(taskId)
        if (!audience) throw new Error(`no audience for ${place}`)
        // The creator is the audience's owner; the members, whom `change` holds for; the people it is
        // shared with, whom `sharedWith` holds for; none of them the viewer, all of them able to see it.
        const may = permissionsOf(audience, viewer)
        const inMemory = mentioned.filter((name) => {
          const them = permissionsOf(audience, viewerNamed(name))
          const isCreator = people[name].id === audience.ownerId
          return (
            name !== by &&
            them.see &&
            ((may.mentionOwner && isCreator) ||
              (may.mentionMembers && them.change) ||
              (may.mentionSharedWith && them.sharedWith))
          )
        })
        expect(inMemory.sort(), `${by} × ${place} in memory`).toEqual(wanted)
      }
    },
  )
})
