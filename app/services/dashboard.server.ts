import { count, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { STATUSES } from '~/domain/constants'
import type { SessionUser } from './session-user'

/** Where the user's own tasks stand: how many in each status (every status present), and in all. */
export async function countOwnTasksByStatus(db: Database, user: SessionUser) {
  const rows = await db
    .select({ status: tasks.status, total: count() })
    .from(tasks)
    .where(eq(tasks.userId, user.id))
    .groupBy(tasks.status)
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
    (typeof STATUSES)[number],
    number
  >
  for (const row of rows) byStatus[row.status] = row.total
  return { byStatus, total: rows.reduce((sum, row) => sum + row.total, 0) }
}
