import { fc } from '@fast-check/vitest'
import type { Database } from '~/db/client.server'
import { STATUSES, type Status } from '~/domain/constants'
import type { WorkspaceRole } from '~/domain/workspaces'
import type { Actor } from '~/services/session-user'
import {
  createTeamWorkspace,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
  removeMember,
} from '../../../tests/helpers/factories'
import { type UserRow, viewerOf } from '../../../tests/helpers/task-service'

/**
 * The generated worlds of the workspace visibility properties (docs/product-rules.md §1), shared by
 * every file that checks one way of reading tasks against them: a few teams with members by role,
 * tasks in a team's workspace or in their creator's personal one, public or not, in any status,
 * shared with the addresses of people who did or did not verify them, and members removed
 * afterwards; and the model of `TASK_RULES.see` (member ∨ shared with a verified address ∨
 * public) over them, in plain TypeScript. Each world tags its tasks with a word of its own, so
 * worlds built one after another in a file do not see each other's rows.
 */

/** The people of every world: the first four verified their address, the last two did not. */
const PEOPLE = 6
const isVerified = (person: number) => person < 4

/** The people every world of a file is built of, made once per file (its database is its own). */
export async function createPeople(db: Database): Promise<UserRow[]> {
  const people: UserRow[] = []
  for (let person = 0; person < PEOPLE; person += 1) {
    people.push(
      await createUser(db, {
        name: `Person ${person}`,
        emailVerifiedAt: isVerified(person) ? new Date() : null,
      }),
    )
  }
  return people
}

const person = fc.nat({ max: PEOPLE - 1 })
export const world = fc.record({
  teams: fc.array(
    fc.record({
      owner: person,
      others: fc.array(fc.record({ person, role: fc.constantFrom<WorkspaceRole>('admin', 'member') }), {
        maxLength: 4,
      }),
    }),
    { minLength: 2, maxLength: 3 },
  ),
  tasks: fc.array(
    fc.record({
      /** A team's index, or past the last team: the creator's personal workspace. */
      workspace: fc.nat({ max: 3 }),
      /** Which member creates it (modulo their number). */
      creator: fc.nat({ max: 9 }),
      isPublic: fc.boolean(),
      status: fc.constantFrom(...STATUSES),
      sharedWith: fc.subarray([...Array(PEOPLE).keys()]),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  removals: fc.array(fc.record({ team: fc.nat({ max: 2 }), person }), { maxLength: 4 }),
})

export type ModelTask = {
  id: string
  workspaceId: string
  creator: number
  /** Who is in its workspace once the removals are done. */
  members: Set<number>
  isPublic: boolean
  status: Status
  sharedWith: number[]
}

export type BuiltWorld = {
  tag: string
  tasks: ModelTask[]
  ids: Set<string>
  /** The team workspaces, with their members (after the removals) by role. */
  teams: { id: string; members: Map<number, WorkspaceRole> }[]
}

/** `TASK_RULES.see`, in plain TypeScript over the model: `null` is a visitor. */
function mayModelSee(task: ModelTask, viewer: number | null) {
  if (task.isPublic) return true
  if (viewer === null) return false
  return task.members.has(viewer) || isModelSharedWith(task, viewer)
}

/** Shared with the person's verified address: how a task reaches someone outside its workspace. */
export function isModelSharedWith(task: ModelTask, viewer: number) {
  return isVerified(viewer) && task.sharedWith.includes(viewer)
}

/** The ids of the tasks the model lets `viewer` see, sorted, of `tasks` narrowed by `where`. */
export function modelVisible(
  tasks: ModelTask[],
  viewer: number | null,
  where: (task: ModelTask) => boolean = () => true,
) {
  return tasks
    .filter((task) => mayModelSee(task, viewer) && where(task))
    .map((task) => task.id)
    .sort()
}

/** Every person, then a visitor (`null`), with what each reads as. */
export function viewersOf(people: UserRow[]) {
  return [...people.keys(), null].map((viewer) => ({
    viewer,
    who: viewer === null ? 'a visitor' : `person ${viewer}`,
    actor: viewer === null ? null : (viewerOf(people[viewer] as UserRow) as Actor),
  }))
}

let worlds = 0

/** Writes a generated world: the teams and their members, the tasks and their shares, then the removals. */
export async function buildWorld(
  db: Database,
  people: UserRow[],
  generated: typeof world extends fc.Arbitrary<infer T> ? T : never,
): Promise<BuiltWorld> {
  worlds += 1
  const tag = `wsrun${worlds}x`
  const row = (index: number) => people[index] as UserRow
  // The teams, their members by role (the first role given a person wins), then the tasks.
  const teams: BuiltWorld['teams'] = []
  for (const spec of generated.teams) {
    const members = new Map<number, WorkspaceRole>([[spec.owner, 'owner']])
    for (const other of spec.others) if (!members.has(other.person)) members.set(other.person, other.role)
    const others = [...members].flatMap(([member, role]) =>
      role === 'owner' ? [] : [{ userId: row(member).id, role }],
    )
    const team = await createTeamWorkspace(db, { ownerId: row(spec.owner).id, members: others })
    teams.push({ id: team.id, members })
  }
  const tasks: ModelTask[] = []
  const inTeam: (number | undefined)[] = []
  for (const spec of generated.tasks) {
    const team = teams[spec.workspace]
    const creator = team
      ? ([...team.members.keys()][spec.creator % team.members.size] as number)
      : spec.creator % PEOPLE
    const workspaceId = team ? team.id : row(creator).id
    const task = await insertTask(db, {
      userId: row(creator).id,
      workspaceId,
      isPublic: spec.isPublic,
      status: spec.status,
      completedAt: spec.status === 'Completed' ? new Date() : null,
      text: `${tag} task`,
    })
    await insertShares(
      db,
      task.id,
      spec.sharedWith.map((sharee) => row(sharee).email),
    )
    inTeam.push(team ? spec.workspace : undefined)
    tasks.push({
      id: task.id,
      workspaceId,
      creator,
      members: new Set(),
      isPublic: spec.isPublic,
      status: spec.status,
      sharedWith: spec.sharedWith,
    })
  }
  // Removals after the tasks: a creator may leave the workspace their task stays in.
  for (const removal of generated.removals) {
    const team = teams[removal.team % teams.length] as (typeof teams)[number]
    if (!team.members.delete(removal.person)) continue
    await removeMember(db, team.id, row(removal.person).id)
  }
  tasks.forEach((task, index) => {
    const team = inTeam[index]
    task.members = team === undefined ? new Set([task.creator]) : new Set(teams[team]?.members.keys())
  })
  return { tag, tasks, teams, ids: new Set(tasks.map((task) => task.id)) }
}
