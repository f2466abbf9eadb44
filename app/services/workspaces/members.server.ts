import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { workspaceMembers } from '~/db/schema'
import { commit, wroteJustBefore } from '~/db/write.server'
import {
  INVITATION_ROLES,
  type InvitationRole,
  MEMBER_REFUSALS,
  managesWorkspace,
  removalRefusal,
  roleChangeRefusal,
  type WorkspaceRole,
} from '~/domain/workspaces'
import { appendAccessChanged } from '~/events/log.server'
import { Conflict, Forbidden, Invalid, NotFound } from '../errors'
import type { Actor } from '../session-user'
import { ROLE_REFUSED } from './invitation-schemas'
import { clearLostAssignmentsSteps, fallBackToPersonalStep } from './membership.server'
import { getWorkspace } from './reads.server'

/**
 * The people of a workspace (docs/product-rules.md §1): its owner and admins manage it; only the
 * owner makes someone an admin, changes an admin's role or removes an admin; nobody removes the
 * owner, and nobody becomes owner but by a transfer. A workspace the actor is not in answers as
 * one that does not exist (`workspaceNotFound`), and a person who is not in it as an unknown one.
 *
 * Each change checks first, for a clear message, and carries the actor's standing and the
 * member's role as they were read into its statement, so a role changed meanwhile changes nothing.
 */

export const MEMBER_NOT_FOUND = 'Member not found'

const CHANGED_MEANWHILE = 'The workspace changed meanwhile. Reload the page and try again.'

/**
 * The workspace as the actor stands in it, for a change only its owner and admins make:
 * NotFound when they are not in it, Forbidden with `refusal` when they are a plain member.
 */
export async function requireManager(db: Executor, actor: Actor, workspaceId: string, refusal: string) {
  const workspace = await getWorkspace(db, actor, workspaceId)
  if (!managesWorkspace(workspace.role)) throw new Forbidden(refusal)
  return workspace
}

/** While the person holds one of these roles in the workspace, as the commit reaches the statement. */
export function holdsRoleSql(workspaceId: string, userId: string, roles: readonly WorkspaceRole[]): SQL {
  return sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, userId),
    inArray(workspaceMembers.role, [...roles]),
  )})`
}

/** The roles that may make a change the owner alone may make, or the owner and admins. */
function rolesFor(ownerOnly: boolean): WorkspaceRole[] {
  return ownerOnly ? ['owner'] : ['owner', 'admin']
}

async function memberRole(db: Executor, workspaceId: string, userId: string): Promise<WorkspaceRole> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .limit(1)
  if (!row) throw new NotFound(MEMBER_NOT_FOUND)
  return row.role
}

function isInvitationRole(role: string): role is InvitationRole {
  return (INVITATION_ROLES as readonly string[]).includes(role)
}

/** Makes a member an admin, or an admin a member. */
export async function changeRole(
  db: Database,
  actor: Actor,
  workspaceId: string,
  userId: string,
  role: string,
): Promise<{ userId: string; role: InvitationRole }> {
  const workspace = await requireManager(db, actor, workspaceId, MEMBER_REFUSALS.changeRole)
  if (!isInvitationRole(role)) throw new Invalid(ROLE_REFUSED, [{ path: ['role'], message: ROLE_REFUSED }])
  const current = await memberRole(db, workspaceId, userId)
  const refusal = roleChangeRefusal(workspace.role, current, role)
  if (refusal) throw new Forbidden(refusal)
  if (current === role) return { userId, role }
  const { changed } = await commit(db, {
    changed: db
      .update(workspaceMembers)
      .set({ role })
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.userId, userId),
          eq(workspaceMembers.role, current),
          holdsRoleSql(workspaceId, actor.id, rolesFor(true)),
        ),
      ),
  })
  if (changed.rowsAffected === 0) throw await whyNothingChanged(db, actor, workspaceId, userId)
  return { userId, role }
}

/** Why nobody lost or changed a role (read afresh): the actor's or the member's standing moved. */
async function whyNothingChanged(db: Database, actor: Actor, workspaceId: string, userId: string) {
  await requireManager(db, actor, workspaceId, MEMBER_REFUSALS.changeRole)
  await memberRole(db, workspaceId, userId)
  return new Conflict(CHANGED_MEANWHILE)
}

/**
 * Takes a person out of the workspace, and in the same commit the assignments they may no longer
 * hold: every task of the workspace assigned to them that is not shared with their verified
 * address, each with its `task-updated` event; their sessions that worked in it fall back to their
 * personal workspace.
 */
export async function removeMember(db: Database, actor: Actor, workspaceId: string, userId: string) {
  const workspace = await getWorkspace(db, actor, workspaceId)
  if (userId === actor.id) throw new Forbidden(MEMBER_REFUSALS.removeSelf)
  if (!managesWorkspace(workspace.role)) throw new Forbidden(MEMBER_REFUSALS.remove)
  const current = await memberRole(db, workspaceId, userId)
  const refusal = removalRefusal(workspace.role, current, false)
  if (refusal) throw new Forbidden(refusal)
  const now = new Date()
  const theirRow = and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, userId),
    eq(workspaceMembers.role, current),
    holdsRoleSql(workspaceId, actor.id, rolesFor(current === 'admin')),
  ) as SQL
  const { removed } = await commit(db, {
    // Their open pages hear it, as no event of the workspace's tasks reaches them any more.
    told: appendAccessChanged(db, theirRow),
    removed: db.delete(workspaceMembers).where(theirRow),
    // Their sessions that worked in it go back to their personal workspace, only if they left it.
    sessions: fallBackToPersonalStep(db, workspaceId, userId, wroteJustBefore),
    // After the removal, so the rule reads them as no longer in the workspace; had the removal
    // not happened, they may still be assigned everything and nothing is cleared.
    assignments: clearLostAssignmentsSteps(db, workspaceId, userId, now, actor.id),
  })
  if (removed.rowsAffected === 0) throw await whyNothingChanged(db, actor, workspaceId, userId)
}
