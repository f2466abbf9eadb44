/**
 * The values and limits of workspaces (docs/product-rules.md §1), in a module that imports
 * nothing, so the schema, the zod schemas and the pages read the same ones.
 */

/** A member's role: exactly one `owner`; `admin`s manage the workspace with it; `member`s work in it. */
export const WORKSPACE_ROLES = ['owner', 'admin', 'member'] as const
/** Whom one may invite as: never `owner`, which only a transfer hands on. */
export const INVITATION_ROLES = ['admin', 'member'] as const
/** An invitation's states, named as better-auth's organization plugin names them. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'rejected', 'canceled'] as const

export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number]
export type InvitationRole = (typeof INVITATION_ROLES)[number]
export type InvitationStatus = (typeof INVITATION_STATUSES)[number]

export const WORKSPACE_LIMITS = {
  name: { minLength: 1, maxLength: 60 },
  slug: { minLength: 3, maxLength: 40, pattern: '[a-z0-9-]+' },
  /** Team workspaces a person may own. */
  ownedTeams: 10,
  /** Days an invitation may be accepted in. */
  invitationDays: 7,
  /** Invitations one workspace may send a day. */
  invitationsPerDay: 50,
  /** Invitations one person may have pending at once. */
  pendingPerInviter: 20,
} as const

/** Whether a role manages the workspace: renames it, invites, changes roles and removes members. */
export function managesWorkspace(role: WorkspaceRole) {
  return role === 'owner' || role === 'admin'
}
