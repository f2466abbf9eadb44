import { and, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import type { WorkspaceRole } from '~/domain/workspaces'

/**
 * A team's workspace as a test story needs it ("Tom owns a team Ada administers"): real rows, as
 * factories.ts writes them. Personal workspaces need none: every account gets its own.
 */

let sequence = 0

/**
 * A team workspace owned by `ownerId`, with `members` in it besides (each with their role), as
 * the rows the workspace service would leave.
 */
export async function createTeamWorkspace(
  db: Database,
  {
    ownerId,
    members = [],
  }: { ownerId: string; members?: { userId: string; role: Exclude<WorkspaceRole, 'owner'> }[] },
) {
  sequence += 1
  const [team] = await db
    .insert(workspaces)
    .values({ name: `Team ${sequence}`, slug: `team-${sequence}-${crypto.randomUUID().slice(0, 8)}` })
    .returning()
  if (!team) throw new Error('no team written')
  await db
    .insert(workspaceMembers)
    .values([
      { workspaceId: team.id, userId: ownerId, role: 'owner' as const },
      ...members.map((member) => ({ workspaceId: team.id, ...member })),
    ])
  return team
}

/** Someone joins a team's workspace (as accepting an invitation adds them). */
export async function addMember(db: Database, workspaceId: string, userId: string, role: WorkspaceRole) {
  await db.insert(workspaceMembers).values({ workspaceId, userId, role })
}

/** Someone leaves or is removed: their membership row goes, as removing a member deletes it. */
export async function removeMember(db: Database, workspaceId: string, userId: string) {
  await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
}
