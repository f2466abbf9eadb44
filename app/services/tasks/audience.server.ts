import { inArray } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { audienceOf, type TaskAudience, taskAudienceColumns } from './rule.server'

/**
 * The audiences of many tasks in one read: event streams and webhooks read them once per task for
 * a whole batch of events and then decide for every subscriber in memory, with `ruleHolds`
 * (tasks/rule.server.ts), the rules' in-memory form; a deletion reads them to carry in its events.
 * A fact the rules gain is a column of `taskAudienceColumns` that this read then carries.
 */
export async function readAudiences(db: Executor, taskIds: readonly string[]) {
  const audiences = new Map<string, TaskAudience>()
  if (taskIds.length === 0) return audiences
  const rows = await db
    .select({
      id: tasks.id,
      ...taskAudienceColumns,
    })
    .from(tasks)
    .where(inArray(tasks.id, [...taskIds]))
  for (const row of rows) audiences.set(row.id, audienceOf(row))
  return audiences
}
