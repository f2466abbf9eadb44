import { eq, inArray, type SQL, sql } from 'drizzle-orm'
import { taskShares, tasks } from '~/db/schema'
import type { Viewer } from '../session-user'

/**
 * The rules of tasks, in one place (docs/product-rules.md §1):
 * - a task is visible to its owner, to users it is shared with once they verified that e-mail,
 *   and to anyone when public (read-only for visitors who are not signed in);
 * - only the owner edits, shares, publishes or deletes; shared users may also change the status;
 * - whom a task is shared with is the owner's to know: others see names, never addresses;
 * - a task nobody may see answers 'Task not found' — never a hint that it exists; a visible task
 *   someone may not change answers 'Unauthorized to view this task' (FORBIDDEN);
 * - every change appends its event in the same transaction.
 *
 * This file holds who may see a task, in the forms the reads (reads.server.ts, list.server.ts)
 * and the writes (writes.server.ts) of tasks, and other domains' queries, apply it.
 */

export const TASK_NOT_FOUND = 'Task not found'
export const NOT_ALLOWED = 'Unauthorized to view this task'

/** The e-mail through which shares reach this viewer: only a verified one counts. */
export function shareEmail(viewer: Viewer) {
  return viewer?.emailVerified ? viewer.email.toLowerCase() : null
}

/** The visibility rule above, for a subtask row aliased `c` inside the progress subqueries. */
export function subtaskVisibleToSql(viewer: Viewer) {
  const email = shareEmail(viewer)
  return sql`(c.is_public = 1${viewer ? sql` OR c.user_id = ${viewer.id}` : sql``}${
    email ? sql` OR c.id IN (SELECT s.task_id FROM ${taskShares} s WHERE s.email = ${email})` : sql``
  })`
}

/** Tasks shared with the viewer's verified address, as a condition on `tasks` (the dashboard counts them too). */
export function sharedWithViewerSql(viewer: Viewer) {
  const email = shareEmail(viewer)
  if (!email) return sql`0`
  return inArray(tasks.id, sharedTaskIdsSql(email))
}

function sharedTaskIdsSql(email: string) {
  return sql`(SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${taskShares.email} = ${email})`
}

/**
 * The visibility rule as a condition on `tasks`, for queries of other domains that must follow
 * it (a notification about a task is readable only while its task is).
 */
export function visibleToSql(viewer: Viewer): SQL {
  if (!viewer) return eq(tasks.isPublic, true)
  return sql`(${eq(tasks.userId, viewer.id)} OR ${sharedWithViewerSql(viewer)} OR ${eq(tasks.isPublic, true)})`
}

/**
 * The visibility rule as a condition on `tasks`, for prepared statements: the viewer is the
 * placeholders `viewerId` and `email` (see `viewerParams`). An absent viewer and an unverified
 * address are NULL, which equals nothing, so one statement serves every viewer.
 */
export const visibleToViewerParamsSql = sql`(${tasks.isPublic} = 1 OR ${tasks.userId} = ${sql.placeholder('viewerId')} OR ${tasks.id} IN (SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${taskShares.email} = ${sql.placeholder('email')}))`

/** The rule above for one task, the placeholder `taskId` (see `visibilityParams`). */
export const isTaskVisibleSql = sql<number>`EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${sql.placeholder('taskId')} AND ${visibleToViewerParamsSql})`

export function viewerParams(viewer: Viewer) {
  return { viewerId: viewer?.id ?? null, email: shareEmail(viewer) }
}

export function visibilityParams(viewer: Viewer, taskId: string) {
  return { taskId, ...viewerParams(viewer) }
}
