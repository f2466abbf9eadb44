import { fc, test } from '@fast-check/vitest'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { SEARCH_LIMITS } from '~/domain/constants'
import type { WorkspaceRole } from '~/domain/workspaces'
import { search } from '~/services/search.server'
import type { Viewer } from '~/services/session-user'
import {
  createTeamWorkspace,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
  removeMember,
} from '../../../tests/helpers/factories'
import { type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { readAudiences } from './audience.server'
import { canSeeTask, getTask, listVisibleTasks } from './reads.server'
import { ruleHolds } from './rule.server'

/**
 * Who sees which task across workspaces (docs/product-rules.md §1), for generated worlds: a few
 * teams with members by role, tasks in a team's workspace or in their creator's personal one,
 * public or not, shared with the addresses of people who did or did not verify them, and members
 * removed afterwards. Every way the app decides "may see" — the probe, getTask, task.getAll,
 * search and the in-memory rule over the audiences event streams read — answers exactly the set
 * `TASK_RULES.see` (member ∨ shared with a verified address ∨ public) gives over the model,
 * written here in plain TypeScript. Each run tags its tasks with a word of its own, so runs do not
 * see each other's rows.
 */

const db = database()

/** The people of every world: the first four verified their address, the last two did not. */
const PEOPLE = 6
const isVerified = (person: number) => person < 4
const people: UserRow[] = []

beforeAll(async () => {
  for (let person = 0; person < PEOPLE; person += 1) {
    people.push(
      await createUser(db, {
        name: `Person ${person}`,
        emailVerifiedAt: isVerified(person) ? new Date() : null,
      }),
    )
  }
})

const person = fc.nat({ max: PEOPLE - 1 })
const world = fc.record({
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
      sharedWith: fc.subarray([...Array(PEOPLE).keys()]),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  removals: fc.array(fc.record({ team: fc.nat({ max: 2 }), person }), { maxLength: 4 }),
})

type Model = { tasks: { id: string; members: Set<number>; isPublic: boolean; sharedWith: number[] }[] }

/** `TASK_RULES.see`, in plain TypeScript over the model: `null` is a visitor. */
function mayModelSee(task: Model['tasks'][number], viewer: number | null) {
  if (task.isPublic) return true
  if (viewer === null) return false
  return task.members.has(viewer) || (isVerified(viewer) && task.sharedWith.includes(viewer))
}

let run = 0

describe('who sees which task, across workspaces', () => {
  test.prop([world], { numRuns: 25 })(
    'every read and the rule in memory answer exactly the model',
    async (generated) => {
      run += 1
      const tag = `wsrun${run}x`
      // The teams, their members by role (the first role given a person wins), then the tasks.
      const teams: { id: string; members: Map<number, WorkspaceRole> }[] = []
      for (const spec of generated.teams) {
        const members = new Map<number, WorkspaceRole>([[spec.owner, 'owner']])
        for (const other of spec.others) if (!members.has(other.person)) members.set(other.person, other.role)
        const others = [...members].flatMap(([member, role]) =>
          role === 'owner' ? [] : [{ userId: (people[member] as UserRow).id, role }],
        )
        const team = await createTeamWorkspace(db, {
          ownerId: (people[spec.owner] as UserRow).id,
          members: others,
        })
        teams.push({ id: team.id, members })
      }
      const model: Model = { tasks: [] }
      const inTeam: (number | undefined)[] = []
      for (const spec of generated.tasks) {
        const team = teams[spec.workspace]
        const creator = team
          ? ([...team.members.keys()][spec.creator % team.members.size] as number)
          : spec.creator % PEOPLE
        const creatorRow = people[creator] as UserRow
        const task = await insertTask(db, {
          userId: creatorRow.id,
          workspaceId: team ? team.id : creatorRow.id,
          isPublic: spec.isPublic,
          text: `${tag} task`,
        })
        await insertShares(
          db,
          task.id,
          spec.sharedWith.map((sharee) => (people[sharee] as UserRow).email),
        )
        inTeam.push(team ? spec.workspace : undefined)
        model.tasks.push({
          id: task.id,
          members: new Set(),
          isPublic: spec.isPublic,
          sharedWith: spec.sharedWith,
        })
      }
      // Removals after the tasks: a creator may leave the workspace their task stays in.
      for (const removal of generated.removals) {
        const team = teams[removal.team % teams.length] as (typeof teams)[number]
        if (!team.members.delete(removal.person)) continue
        await removeMember(db, team.id, (people[removal.person] as UserRow).id)
      }
      model.tasks.forEach((task, index) => {
        const team = inTeam[index]
        const creator = generated.tasks[index] as (typeof generated.tasks)[number]
        task.members =
          team === undefined ? new Set([creator.creator % PEOPLE]) : new Set(teams[team]?.members.keys())
      })

      const ids = new Set(model.tasks.map((task) => task.id))
      const audiences = await readAudiences(db, [...ids])
      const viewers: (number | null)[] = [...Array(PEOPLE).keys(), null]
      for (const viewer of viewers) {
        const who = viewer === null ? 'a visitor' : `person ${viewer}`
        const as: Viewer = viewer === null ? null : viewerOf(people[viewer] as UserRow)
        const wanted = model.tasks
          .filter((task) => mayModelSee(task, viewer))
          .map((task) => task.id)
          .sort()
        const probed: string[] = []
        const read: string[] = []
        const inMemory: string[] = []
        for (const id of ids) {
          if (await canSeeTask(db, as, id)) probed.push(id)
          if (
            await getTask(db, as, id).then(
              () => true,
              () => false,
            )
          )
            read.push(id)
          const audience = audiences.get(id)
          if (audience && ruleHolds('see', audience, as)) inMemory.push(id)
        }
        expect(probed.sort(), `${who}: canSeeTask`).toEqual(wanted)
        expect(read.sort(), `${who}: getTask`).toEqual(wanted)
        expect(inMemory.sort(), `${who}: ruleHolds over readAudiences`).toEqual(wanted)
        if (as === null) continue
        const listed = (await listVisibleTasks(db, as)).map((task) => task.id).filter((id) => ids.has(id))
        expect(listed.sort(), `${who}: listVisibleTasks`).toEqual(wanted)
        const found = await search(db, as, { query: tag, limit: SEARCH_LIMITS.results.max })
        expect(found.tasks.map((task) => task.id).sort(), `${who}: search`).toEqual(wanted)
      }
    },
    60_000,
  )
})
