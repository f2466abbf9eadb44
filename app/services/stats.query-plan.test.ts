import { afterEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import { createTask, createUser, shareTask } from '../../tests/helpers/factories'
import { planOf, statementsOf } from '../../tests/helpers/query-plan'
import {
  getDueCounts,
  getMostRecentCompleted,
  getMostRecentCreated,
  getProductivityInsights,
  getTaskStats,
} from './stats.server'

/**
 * Every statement the dashboard runs reaches `tasks` through an index: SQLite's plan for it
 * never says `SCAN` of the tasks table (which would read every task of every person). The plan
 * is read for the very statements the service sends, captured at the client.
 */

const db = database()

afterEach(() => {
  vi.restoreAllMocks()
})

describe('query plans', () => {
  test('no dashboard statement scans the tasks table', async () => {
    const ada = await createUser(db)
    const grace = await createUser(db)
    // Enough rows of other people that a missing index would show as a scan worth avoiding.
    for (let i = 0; i < 20; i++) await createTask(db, { userId: grace.id })
    const shared = await createTask(db, { userId: grace.id, status: 'Completed', completedAt: new Date() })
    await shareTask(db, shared.id, [ada.email])
    await createTask(db, { userId: ada.id, status: 'Completed', completedAt: new Date() })
    for (let i = 0; i < 20; i++)
      await createTask(db, { userId: grace.id, dueDate: '2030-01-01', assigneeId: grace.id })
    const assigned = await createTask(db, { userId: grace.id, dueDate: '2030-01-01', assigneeId: ada.id })
    await shareTask(db, assigned.id, [ada.email])
    const actor = { ...ada, emailVerified: true }

    const statements = await statementsOf(db, async () => {
      await getTaskStats(db, actor, personalWorkspaceId(actor))
      await getProductivityInsights(db, actor, personalWorkspaceId(actor), { timeZone: 'Europe/Berlin' })
      await getMostRecentCompleted(db, actor, personalWorkspaceId(actor))
      await getMostRecentCreated(db, actor, personalWorkspaceId(actor))
      await getDueCounts(db, actor, personalWorkspaceId(actor), { timeZone: 'Asia/Tokyo' })
    })

    expect(statements.length).toBeGreaterThanOrEqual(9)
    for (const statement of statements) {
      const plan = await planOf(db, statement)
      const scans = plan.filter((step) => /^SCAN (tasks|t|c)\b/.test(step))
      expect({ statement, scans }).toEqual({ statement, scans: [] })
      expect(
        plan.some((step) => /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/.test(step)),
      ).toBe(true)
    }
  })
})
