import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { STATUSES } from '~/domain/constants'
import { DUE_WINDOWS, dueWindowDays, isDueWithin } from '~/utils/due-date'
import { createTask, createUser } from '../../../tests/helpers/factories'
import { dueWithinSql } from './due.server'

/**
 * Both forms of every due window — in memory (`isDueWithin`, the badge and the assistant) and in
 * SQL (`dueWithinSql`, the list's filter and the dashboard's counts), bound now and as the
 * placeholders of a prepared statement — over one grid of due dates × statuses × todays, against
 * the real database. A form that drifts from the others fails here, cell by cell.
 */

const db = database()
const TODAYS = ['2026-11-23', '2026-11-26', '2026-11-29', '2026-12-31']
const DATES = [
  null,
  '2026-11-01',
  '2026-11-22',
  '2026-11-23',
  '2026-11-25',
  '2026-11-26',
  '2026-11-27',
].concat(['2026-11-29', '2026-11-30', '2026-12-31', '2027-01-01', '2027-01-03', '2027-01-04'])

let ownerId = ''
beforeAll(async () => {
  ownerId = (await createUser(db)).id
  for (const dueDate of DATES)
    for (const status of STATUSES) await createTask(db, { userId: ownerId, dueDate, status })
})

const cell = (task: { dueDate: string | null; status: string }) =>
  `${task.dueDate ?? 'undated'} ${task.status}`

test.each(DUE_WINDOWS.flatMap((window) => TODAYS.map((today) => [window, today] as const)))(
  '%s, today %s: SQL bound now, SQL prepared and in memory hold the same tasks',
  async (window, today) => {
    const rows = await db
      .select({ dueDate: tasks.dueDate, status: tasks.status })
      .from(tasks)
      .where(eq(tasks.userId, ownerId))
    const inMemory = rows
      .filter((task) => isDueWithin(window, task, today))
      .map(cell)
      .sort()
    const bound = await db
      .select({ dueDate: tasks.dueDate, status: tasks.status })
      .from(tasks)
      .where(and(eq(tasks.userId, ownerId), dueWithinSql(window, dueWindowDays(window, today))))
    const prepared = await db
      .select({ dueDate: tasks.dueDate, status: tasks.status })
      .from(tasks)
      .where(
        and(
          eq(tasks.userId, ownerId),
          dueWithinSql(window, { from: sql.placeholder('from'), before: sql.placeholder('before') }),
        ),
      )
      .prepare()
      .all(dueWindowDays(window, today))
    expect(bound.map(cell).sort()).toEqual(inMemory)
    expect(prepared.map(cell).sort()).toEqual(inMemory)
  },
)

test('the windows part the dated open tasks: none is in two of them', () => {
  for (const today of TODAYS)
    for (const dueDate of DATES) {
      const holding = DUE_WINDOWS.filter(
        (window) => window !== 'today' && isDueWithin(window, { dueDate, status: 'In Progress' }, today),
      )
      expect(holding.length).toBeLessThanOrEqual(1)
    }
})
