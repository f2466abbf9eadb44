import { eq } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { workspaces } from '~/db/schema'
import { NotFound } from '../errors'
import { audienceOf, type WorkspaceAudience, workspaceAudienceColumns } from '../tasks/rule.server'

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
export async function readWorkspaceAudience(db: Executor, workspaceId: string): Promise<WorkspaceAudience | null> {
  const [row] = await db
    .select({ id: workspaces.id, ...workspaceAudienceColumns(workspaces.id) })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1)
  if (!row) return null
  const { members, admins } = audienceOf({ ownerId: '', workspaceId, isPublic: false, sharedWith: '[]', ...row })
  return { members, admins }
}

/** The workspace's members and admins, for a person who must be one of its members; NotFound otherwise. */
export async function requireMembership(db: Executor, personId: string, workspaceId: string) {
  const audience = await readWorkspaceAudience(db, workspaceId)
  if (!audience?.members.includes(personId)) throw workspaceNotFound()
  return audience
}
