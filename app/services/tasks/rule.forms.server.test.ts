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
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
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
 * as event streams decide — run over one grid of viewers × tasks, against the real database, and
 * held to one table. A form that drifts from the others fails here, cell by cell.
 */

const db = database()

const VIEWERS = ['owner', 'shared-verified', 'shared-unverified', 'stranger', 'anonymous'] as const
const KINDS = ['private', 'shared', 'public', 'public+shared'] as const
type ViewerName = (typeof VIEWERS)[number]
type Kind = (typeof KINDS)[number]
/** Every kind of task as a top-level task and as a subtask, and one that was deleted. */
type Place = `${Kind}` | `subtask of ${Kind}` | 'deleted'

/**
 * docs/product-rules.md §1, one row per viewer and kind of task. A "shared" task is shared with the
 * addresses of both sharees; only the verified one counts. A subtask follows the same row as a
 * task of its kind; a deleted task is nobody's to see.
 */
const TABLE = `
  viewer             kind           see  setStatus  change  delete  comment  sharedWith  publicToThem  beAssigned  seeShares  mentionOwner  mentionSharedWith
  owner              private        yes  yes        yes     yes     yes      no          no            yes         yes        no            yes
  owner              shared         yes  yes        yes     yes     yes      no          no            yes         yes        no            yes
  owner              public         yes  yes        yes     yes     yes      no          no            yes         yes        no            no
  owner              public+shared  yes  yes        yes     yes     yes      no          no            yes         yes        no            no
  shared-verified    private        no   no         no      no      no       no          no            no          no         no            no
  shared-verified    shared         yes  yes        no      no      yes      yes         no            yes         no         yes           no
  shared-verified    public         yes  no         no      no      yes      no          yes           no          no         no            no
  shared-verified    public+shared  yes  yes        no      no      yes      yes         no            yes         no         no            no
  shared-unverified  private        no   no         no      no      no       no          no            no          no         no            no
  shared-unverified  shared         no   no         no      no      no       no          no            no          no         no            no
  shared-unverified  public         yes  no         no      no      yes      no          yes           no          no         no            no
  shared-unverified  public+shared  yes  no         no      no      yes      no          yes           no          no         no            no
  stranger           private        no   no         no      no      no       no          no            no          no         no            no
  stranger           shared         no   no         no      no      no       no          no            no          no         no            no
  stranger           public         yes  no         no      no      yes      no          yes           no          no         no            no
  stranger           public+shared  yes  no         no      no      yes      no          yes           no          no         no            no
  anonymous          private        no   no         no      no      no       no          no            no          no         no            no
  anonymous          shared         no   no         no      no      no       no          no            no          no         no            no
  anonymous          public         yes  no         no      no      no       no          yes           no          no         no            no
  anonymous          public+shared  yes  no         no      no      no       no          yes           no          no         no            no
`

const RULES = Object.keys(TASK_RULES) as TaskRule[]

function readTable() {
  const [header, ...lines] = TABLE.trim().split('\n')
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

const { columns, expected } = readTable()

function expectedOf(viewer: ViewerName, place: Place, rule: TaskRule) {
  if (place === 'deleted') return false
  const kind = place.replace('subtask of ', '')
  return expected.get(`${viewer} ${kind}`)?.[rule] as boolean
}

const people = {} as Record<Exclude<ViewerName, 'anonymous'>, UserRow>
const places = {} as Record<Place, string>
let parentId = ''

function viewerNamed(name: ViewerName): Viewer {
  return name === 'anonymous' ? null : viewerOf(people[name])
}

beforeAll(async () => {
  people.owner = await createUser(db, { name: 'Olive Owner' })
  people['shared-verified'] = await createUser(db, { name: 'Vera Verified' })
  people['shared-unverified'] = await createUser(db, { name: 'Una Unverified', emailVerifiedAt: null })
  people.stranger = await createUser(db, { name: 'Sam Stranger' })
  // Public, so every viewer reads the progress of its subtasks.
  parentId = (await insertTask(db, { userId: people.owner.id, isPublic: true, text: 'The parent' })).id
  const make = async (kind: Kind, parentTaskId?: string) => {
    const task = await insertTask(db, {
      userId: people.owner.id,
      isPublic: kind.startsWith('public'),
      parentTaskId,
    })
    if (kind.endsWith('shared')) {
      await insertShares(db, task.id, [people['shared-verified'].email, people['shared-unverified'].email])
    }
    return task.id
  }
  for (const kind of KINDS) {
    places[kind] = await make(kind)
    places[`subtask of ${kind}`] = await make(kind, parentId)
  }
  places.deleted = await make('public+shared')
  await db.delete(tasks).where(eq(tasks.id, places.deleted))
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

test('the table names every rule, and covers every viewer with every kind of task once', () => {
  expect([...columns].sort()).toEqual([...RULES].sort())
  expect([...expected.keys()].sort()).toEqual(VIEWERS.flatMap((v) => KINDS.map((k) => `${v} ${k}`)).sort())
})

describe.each(RULES)('rule %s', (rule) => {
  test.each(Object.keys(FORMS))('%s: every viewer × task as the table says', async (form) => {
    const answers: string[] = []
    const wanted: string[] = []
    for (const viewer of VIEWERS) {
      for (const place of PLACES) {
        const holds = await FORMS[form]?.(rule, viewerNamed(viewer), places[place])
        answers.push(`${viewer} × ${place}: ${holds ? 'yes' : 'no'}`)
        wanted.push(`${viewer} × ${place}: ${expectedOf(viewer, place, rule) ? 'yes' : 'no'}`)
      }
    }
    expect(answers).toEqual(wanted)
  })
})

describe('the services apply the same rules', () => {
  test.each(VIEWERS)('%s: canSeeTask, getTask and its permissions, and the named probes', async (name) => {
    const viewer = viewerNamed(name)
    for (const place of PLACES) {
      const taskId = places[place]
      const see = expectedOf(name, place, 'see')
      expect(await canSeeTask(db, viewer, taskId), `${name} × ${place}`).toBe(see)
      const [probe] = await db
        .select({ see: isTaskVisibleSql, comment: mayCommentSql })
        .from(sql`(SELECT 1)`)
        .all(visibilityParams(viewer, taskId))
      expect([Number(probe?.see) === 1, Number(probe?.comment) === 1]).toEqual([
        see,
        expectedOf(name, place, 'comment'),
      ])
      const access = await getTask(db, viewer, taskId).catch((error: unknown) => {
        if (error instanceof NotFound) return null
        throw error
      })
      expect(access !== null).toBe(see)
      if (access) {
        expect(access.may, `${name} × ${place}: getTask's permissions`).toEqual(
          Object.fromEntries(RULES.map((rule) => [rule, expectedOf(name, place, rule)])),
        )
      }
    }
  })

  test.each(VIEWERS)('%s: the progress of a parent counts the subtasks they may see', async (name) => {
    const viewer = viewerNamed(name)
    const visibleSubtasks = KINDS.filter((kind) => expectedOf(name, `subtask of ${kind}`, 'see')).length
    expect((await getTask(db, viewer, parentId)).task.subtaskCount).toBe(visibleSubtasks)
    if (!viewer) return
    const groups = await listTaskGroups(db, viewer, personalWorkspaceId(viewer))
    const row = [...groups.mine.tasks, ...groups.shared, ...groups.public].find(
      (task) => task.id === parentId,
    )
    expect(row?.subtaskCount).toBe(visibleSubtasks)
  })

  test.each(VIEWERS.filter((name) => name !== 'anonymous'))(
    '%s: task.getAll and the list groups follow see, change, sharedWith and publicToThem',
    async (name) => {
      const viewer = viewerOf(people[name as Exclude<ViewerName, 'anonymous'>])
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
        const taskId = places[place]
        const isTopLevel = !place.startsWith('subtask')
        expect(visible.has(taskId), `${name} × ${place} in task.getAll`).toBe(expectedOf(name, place, 'see'))
        expect(mine.has(taskId), `${name} × ${place} in mine`).toBe(
          isTopLevel && expectedOf(name, place, 'change'),
        )
        expect(shared.has(taskId), `${name} × ${place} in shared`).toBe(expectedOf(name, place, 'sharedWith'))
        expect(publicTasks.has(taskId), `${name} × ${place} in public`).toBe(
          isTopLevel && expectedOf(name, place, 'publicToThem'),
        )
      }
    },
  )
})

/**
 * Who may mention whom (mentions.server.ts, by the rules `mentionSharedWith` and `mentionOwner`
 * above): the owner, the verified people a task is shared with; one of those, the owner; nobody on
 * a public task. Every other pair: nobody.
 */
const MENTIONS: Record<string, string[]> = {
  'owner shared': ['shared-verified'],
  'shared-verified shared': ['owner'],
}

describe('who may mention whom', () => {
  const MENTIONED = ['owner', 'shared-verified', 'shared-unverified', 'stranger'] as const

  test.each(VIEWERS)('%s: the statements and the rule in memory agree with the table', async (by) => {
    const viewer = viewerNamed(by)
    for (const place of PLACES.filter((place) => place !== 'deleted')) {
      const kind = place.replace('subtask of ', '')
      const wanted = MENTIONS[`${by} ${kind}`] ?? []
      const fromSql = await mentionableUsers(db, viewer, places[place]).catch((error: unknown) => {
        if (error instanceof NotFound) return []
        throw error
      })
      const byId = new Map(MENTIONED.map((name) => [people[name].id, name]))
      expect(fromSql.map((user) => byId.get(user.id)).sort(), `${by} × ${place} in SQL`).toEqual(wanted)
      const audience = (await readAudiences(db, [places[place]])).get(places[place])
      if (!audience) throw new Error(`no audience for ${place}`)
      // The owner is whom `change` holds for; the people it is shared with, whom `sharedWith` holds for.
      const may = permissionsOf(audience, viewer)
      const inMemory = MENTIONED.filter((of) => {
        const them = permissionsOf(audience, viewerNamed(of))
        return (may.mentionOwner && them.change) || (may.mentionSharedWith && them.sharedWith)
      })
      expect(inMemory, `${by} × ${place} in memory`).toEqual(wanted)
    }
  })
})
