import { inArray, sql } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { taskShares, tasks } from '~/db/schema'
import type { TaskAudience } from './tasks/rule.server'

/**
 * The audiences of many tasks in one read: event streams read them once per task for a whole
 * batch of events and then decide for every subscriber in memory, with `ruleHolds`
 * (tasks/rule.server.ts), the visibility rule's in-memory form.
 */
export async function readAudiences(db: Executor, taskIds: readonly string[]) {
  const audiences = new Map<string, TaskAudience>()
  if (taskIds.length === 0) return audiences
  const rows = await db
    .select({
      id: tasks.id,
      ownerId: tasks.userId,
      isPublic: tasks.isPublic,
      sharedWith: sql<string>`(SELECT json_group_array(s.email) FROM ${taskShares} s WHERE s.task_id = ${tasks.id})`,
    })
    .from(tasks)
    .where(inArray(tasks.id, [...taskIds]))
  for (const { id, sharedWith, ...row } of rows) {
    audiences.set(id, { ...row, sharedWith: JSON.parse(sharedWith) as string[] })
  }
  return audiences
}
