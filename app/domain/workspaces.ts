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

/** Why a change to the people of a workspace is refused, as the person who asked reads it. */
export const MEMBER_REFUSALS = {
  changeRole: 'Only the workspace’s owner and admins change roles.',
  remove: 'Only the workspace’s owner and admins remove people.',
  ownerRole: 'The owner’s role changes only by transferring the workspace.',
  makeAdmin: 'Only the workspace’s owner makes someone an admin.',
  adminRole: 'Only the workspace’s owner changes an admin’s role.',
  removeOwner: 'Nobody can remove the workspace’s owner.',
  removeAdmin: 'Only the workspace’s owner removes an admin.',
  removeSelf: 'You cannot remove yourself: leave the workspace from its settings instead.',
} as const

/**
 * Why someone of role `actor` may not give a member of role `current` the role `role`; undefined
 * when they may. The owner changes anyone's but their own; an admin changes nobody's (making an
 * admin, and an admin's role, are the owner's), and leaving a role as it is changes nothing.
 */
export function roleChangeRefusal(actor: WorkspaceRole, current: WorkspaceRole, role: InvitationRole) {
  if (!managesWorkspace(actor)) return MEMBER_REFUSALS.changeRole
  if (current === 'owner') return MEMBER_REFUSALS.ownerRole
  if (actor === 'owner' || current === role) return undefined
  return current === 'admin' ? MEMBER_REFUSALS.adminRole : MEMBER_REFUSALS.makeAdmin
}

/**
 * Why someone of role `actor` may not remove a member of role `current` (themselves when
 * `isSelf`: that is leaving); undefined when they may.
 */
export function removalRefusal(actor: WorkspaceRole, current: WorkspaceRole, isSelf: boolean) {
  if (isSelf) return MEMBER_REFUSALS.removeSelf
  if (!managesWorkspace(actor)) return MEMBER_REFUSALS.remove
  if (current === 'owner') return MEMBER_REFUSALS.removeOwner
  if (current === 'admin' && actor !== 'owner') return MEMBER_REFUSALS.removeAdmin
  return undefined
}

/** Whether someone of role `actor` may invite as `role`: the owner and admins invite members, the owner alone admins. */
export function mayInviteAs(actor: WorkspaceRole, role: InvitationRole) {
  return role === 'admin' ? actor === 'owner' : managesWorkspace(actor)
}
