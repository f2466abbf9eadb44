import { test } from '@fast-check/vitest'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { SEARCH_LIMITS } from '~/domain/constants'
import { search } from '~/services/search.server'
import type { UserRow } from '../../../tests/helpers/task-service'
import { readAudiences } from './audience.server'
import { canSeeTask, getTask, listVisibleTasks } from './reads.server'
import { ruleHolds } from './rule.server'
import { buildWorld, createPeople, modelVisible, viewersOf, world } from './workspace-worlds'

/**
 * Who sees which task across workspaces (docs/product-rules.md §1), for the generated worlds of
 * ./workspace-worlds.ts: every service read — the probe, getTask, task.getAll, search and the
 * in-memory rule over the audiences event streams read — answers exactly the set the model of
 * `TASK_RULES.see` gives. The other ways in are checked against the same worlds beside this file
 * (workspaces.property.notices.server.test.ts) and in tests/integration/workspace-visibility.property.test.ts.
 */

const db = database()
let people: UserRow[] = []

beforeAll(async () => {
  people = await createPeople(db)
})

describe('who sees which task, across workspaces', () => {
  test.prop([world], { numRuns: 25 })(
    'every read and the rule in memory answer exactly the model',
    async (generated) => {
      const { tag, tasks, ids } = await buildWorld(db, people, generated)
      const audiences = await readAudiences(db, [...ids])
      for (const { viewer, who, actor } of viewersOf(people)) {
        const wanted = modelVisible(tasks, viewer)
        const probed: string[] = []
        const read: string[] = []
        const inMemory: string[] = []
        for (const id of ids) {
          if (await canSeeTask(db, actor, id)) probed.push(id)
          if (
            await getTask(db, actor, id).then(
              () => true,
              () => false,
            )
          )
            read.push(id)
          const audience = audiences.get(id)
          if (audience && ruleHolds('see', audience, actor)) inMemory.push(id)
        }
        expect(probed.sort(), `${who}: canSeeTask`).toEqual(wanted)
        expect(read.sort(), `${who}: getTask`).toEqual(wanted)
        expect(inMemory.sort(), `${who}: ruleHolds over readAudiences`).toEqual(wanted)
        if (actor === null) continue
        const listed = (await listVisibleTasks(db, actor)).map((task) => task.id).filter((id) => ids.has(id))
        expect(listed.sort(), `${who}: listVisibleTasks`).toEqual(wanted)
        const found = await search(db, actor, { query: tag, limit: SEARCH_LIMITS.results.max })
        expect(found.tasks.map((task) => task.id).sort(), `${who}: search`).toEqual(wanted)
      }
    },
    60_000,
  )
})
