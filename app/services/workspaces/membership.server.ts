import { and, eq, not, type SQL } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { sessions, tasks, workspaces } from '~/db/schema'
import type { Builder, Step } from '~/db/write.server'
import { appendEventPerTask } from '~/events/log.server'
import { NotFound } from '../errors'
import {
  audienceOf,
  personInSql,
  ruleSql,
  type WorkspaceAudience,
  workspaceAudienceColumns,
} from '../tasks/rule.server'

/**
 * Who is in a workspace, as tasks' rules read it (tasks/rule.server.ts): the facts "is a member of
 * the task's workspace" and "is its owner or an admin" come from `workspace_members`, and nowhere else.
 */

/** What a workspace someone is not in answers, word for word as one that does not exist. */
export const WORKSPACE_NOT_FOUND = 'Workspace not found'

export function workspaceNotFound() {
  return new NotFound(WORKSPACE_NOT_FOUND)
}

/** A person's personal workspace has their account's id (drizzle/0014_workspaces.sql). */
export function personalWorkspaceId(person: { id: string }) {
  return person.id
}

/** The members and admins of a workspace; null when it does not exist. */
export async function readWorkspaceAudience(
  db: Executor,
  workspaceId: string,
): Promise<WorkspaceAudience | null> {
  const [row] = await db
    .select({ id: workspaces.id, ...workspaceAudienceColumns(workspaces.id) })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1)
  if (!row) return null
  const { members, admins } = audienceOf({
    ownerId: '',
    workspaceId,
    isPublic: false,
    sharedWith: '[]',
    ...row,
  })
  return { members, admins }
}

/** The workspace's members and admins, for a person who must be one of its members; NotFound otherwise. */
export async function requireMembership(db: Executor, personId: string, workspaceId: string) {
  const audience = await readWorkspaceAudience(db, workspaceId)
  if (!audience?.members.includes(personId)) throw workspaceNotFound()
  return audience
}

// ── Someone no longer in a workspace ───────────────────────────────────────

/**
 * The assignments a person loses with their place in a workspace (leaving it, or being removed):
 * every task of the workspace assigned to them that they may no longer be assigned
 * (`TASK_RULES.beAssigned`: a task still shared with their verified address stays theirs), each
 * cleared with its `task-updated` event. Statements of the commit that deletes their membership
 * row, named after it: the rule is read as that commit leaves the workspace, so an assignment made
 * up to the last moment is cleared too. `actorId` is who made the change, the person themself by
 * default.
 */
export function clearLostAssignmentsSteps(
  db: Builder,
  workspaceId: string,
  userId: string,
  now: Date,
  actorId = userId,
): Step[] {
  const lost = and(
    eq(tasks.workspaceId, workspaceId),
    eq(tasks.assigneeId, userId),
    not(ruleSql('beAssigned', personInSql(tasks.assigneeId))),
  ) as SQL
  return [
    // The events first: once cleared, the tasks no longer answer to `lost`.
    appendEventPerTask(db, { topic: 'tasks', type: 'task-updated', payload: { userId: actorId } }, lost),
    db.update(tasks).set({ assigneeId: null, updatedAt: now }).where(lost),
  ]
}

/**
 * Sessions that worked in the workspace fall back to their person's personal one (a null
 * `activeWorkspaceId`): those of `userId` when one person leaves it, everyone's when it goes;
 * only while `onlyIf` holds as the commit reaches it.
 */
export function fallBackToPersonalStep(db: Builder, workspaceId: string, userId?: string, onlyIf?: SQL) {
  return db
    .update(sessions)
    .set({ activeWorkspaceId: null })
    .where(
      and(
        eq(sessions.activeWorkspaceId, workspaceId),
        userId === undefined ? undefined : eq(sessions.userId, userId),
        onlyIf,
      ),
    )
}
