import { inArray, sql } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { taskShares, tasks } from '~/db/schema'
import type { Viewer } from './session-user'

/**
 * Who may see a task, reduced to what deciding for one person needs: event streams read it once
 * per task for a whole batch of events and then decide for every subscriber in memory. It is the
 * visibility rule of tasks/rule.server.ts (docs/product-rules.md §1): the owner, the people it is
 * shared with once they verified that address, and anyone when it is public.
 */
export type TaskAudience = {
  ownerId: string
  isPublic: boolean
  /** The addresses it is shared with, lower case as stored. */
  sharedWith: string[]
}

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

export function isInAudience(audience: TaskAudience, viewer: Viewer) {
  if (audience.isPublic) return true
  if (!viewer) return false
  if (audience.ownerId === viewer.id) return true
  return viewer.emailVerified && audience.sharedWith.includes(viewer.email.toLowerCase())
}
