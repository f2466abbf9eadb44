import type { InvitationView, PendingInvitationView } from '~/services/workspaces/invitations.server'
import type { MemberView, WorkspaceView } from '~/services/workspaces/reads.server'
import { z } from '~/utils/zod'

/**
 * better-auth's organization plugin's shapes, read off Threadwork's workspaces: an organization is
 * a workspace (one id everywhere: `organization.id` is RPC's `workspaceId`), its members and its
 * invitations. A member has no id of its own in Threadwork: `member.id` is the person's id, unique
 * within its organization, which every endpoint taking a member id names (or defaults to the
 * session's). Workspaces hold no logo or metadata: both read null.
 */

export function organizationJson(workspace: Pick<WorkspaceView, 'id' | 'name' | 'slug' | 'createdAt'>) {
  return {
    id: workspace.id,
    name: workspace.name,
    slug: workspace.slug,
    logo: null,
    metadata: null,
    createdAt: workspace.createdAt,
  }
}

export function memberJson(organizationId: string, member: MemberView) {
  return {
    id: member.userId,
    organizationId,
    userId: member.userId,
    role: member.role,
    createdAt: member.joinedAt,
    user: { id: member.userId, name: member.name, email: member.email, image: member.image },
  }
}

export function invitationJson(
  organizationId: string,
  invitation: PendingInvitationView & Partial<Pick<InvitationView, 'status'>>,
) {
  return {
    id: invitation.id,
    organizationId,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status ?? 'pending',
    inviterId: invitation.inviterId,
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt,
  }
}

/** better-auth takes a role or a list of roles; a Threadwork member holds exactly one. */
export const RoleInput = z
  .union([z.string(), z.array(z.string()).length(1, 'A member holds exactly one role')])
  .transform((role) => (Array.isArray(role) ? (role[0] ?? '') : role))

/** What a workspace cannot hold is refused, never silently dropped. */
export const NoLogo = z.null({ error: 'Workspaces have no logo' }).optional()
export const NoMetadata = z.null({ error: 'Workspaces hold no metadata' }).optional()
