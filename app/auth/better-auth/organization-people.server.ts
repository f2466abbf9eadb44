import { database } from '~/db/client.server'
import { NotFound } from '~/services/errors'
import type { SignedInUser } from '~/services/session-user'
import { setActiveWorkspace } from '~/services/sessions.server'
import { WorkspaceIdSchema } from '~/services/tasks/task-schemas'
import {
  InvitationIdSchema,
  InviteMemberSchema,
  MemberIdSchema,
} from '~/services/workspaces/invitation-schemas'
import {
  acceptInvitation,
  getInvitation,
  getWorkspaceInvitation,
  inviteMember,
  listInvitations,
  rejectInvitation,
  resendInvitation,
  revokeInvitation,
} from '~/services/workspaces/invitations.server'
import { changeRole, MEMBER_NOT_FOUND, removeMember } from '~/services/workspaces/members.server'
import { listMembers } from '~/services/workspaces/reads.server'
import { leaveWorkspace } from '~/services/workspaces/workspaces.server'
import { z } from '~/utils/zod'
import { requireSession } from './endpoints.server'
import { type Endpoint, organizationFor, ownMember } from './organization.server'
import { invitationJson, memberJson, RoleInput } from './organization-json.server'
import { body, json, query } from './responses.server'

/**
 * The people of better-auth's organizations: invitations (the owner's and admins' side, and the
 * invitee's) and members, on the invitations and members services the /workspaces/<slug>/members
 * page and /invitations/<id> use. A member is named by the person's id (organization-json.server.ts).
 */

const OrganizationId = z.object({ organizationId: WorkspaceIdSchema.optional() })

/** The member of a workspace the caller is in, by the person's id or address; NotFound otherwise. */
async function memberOf(user: SignedInUser, organizationId: string, idOrEmail: string) {
  const members = await listMembers(database(), user, organizationId)
  const address = idOrEmail.toLowerCase()
  const member = members.find((candidate) => candidate.userId === idOrEmail || candidate.email === address)
  if (!member) throw new NotFound(MEMBER_NOT_FOUND)
  return memberJson(organizationId, member)
}

/** An invitation as its invitee reads it, after their answer. */
async function answered(user: SignedInUser, invitationId: string) {
  const invitation = await getInvitation(database(), user, invitationId)
  return invitationJson(invitation.workspace.id, invitation)
}

const GET: Record<string, Endpoint> = {
  'organization/list-invitations': async (args) => {
    const { user } = await requireSession(args)
    const input = query(args.request, OrganizationId)
    const organizationId = input.organizationId ?? user.activeWorkspaceId
    const invitations = await listInvitations(database(), user, organizationId)
    return json(invitations.map((invitation) => invitationJson(organizationId, invitation)))
  },

  'organization/get-invitation': async (args) => {
    const { user } = await requireSession(args)
    const { id } = query(args.request, z.object({ id: InvitationIdSchema.shape.invitationId }))
    const invitation = await getInvitation(database(), user, id)
    return json({
      ...invitationJson(invitation.workspace.id, invitation),
      organizationName: invitation.workspace.name,
      organizationSlug: invitation.workspace.slug,
      inviterEmail: invitation.inviterEmail,
    })
  },
}

const POST: Record<string, Endpoint> = {
  /** `resend: true` sends again the invitation the address already has, as the members page does. */
  'organization/invite-member': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      OrganizationId.extend({ email: z.string(), role: RoleInput, resend: z.boolean().optional() }),
    )
    const invitee = InviteMemberSchema.parse({ email: input.email, role: input.role })
    const db = database()
    const { id: organizationId } = await organizationFor(user, input)
    const pending = input.resend
      ? (await listInvitations(db, user, organizationId)).find((sent) => sent.email === invitee.email)
      : undefined
    const invitation = pending
      ? await resendInvitation(db, user, organizationId, pending.id)
      : await inviteMember(db, user, organizationId, invitee)
    return json(invitationJson(organizationId, invitation))
  },

  /** As better-auth does, the session then works in the workspace joined. */
  'organization/accept-invitation': async (args) => {
    const { user, session } = await requireSession(args)
    const { invitationId } = await body(args.request, InvitationIdSchema)
    const db = database()
    const { workspace } = await acceptInvitation(db, user, invitationId)
    await setActiveWorkspace(db, { id: session.id, userId: user.id }, workspace.id)
    return json({
      invitation: await answered(user, invitationId),
      member: await ownMember(user, workspace.id),
    })
  },

  'organization/reject-invitation': async (args) => {
    const { user } = await requireSession(args)
    const { invitationId } = await body(args.request, InvitationIdSchema)
    await rejectInvitation(database(), user, invitationId)
    return json({ invitation: await answered(user, invitationId), member: null })
  },

  'organization/cancel-invitation': async (args) => {
    const { user } = await requireSession(args)
    const { invitationId } = await body(args.request, InvitationIdSchema)
    const db = database()
    const { workspace } = await getWorkspaceInvitation(db, user, invitationId)
    await revokeInvitation(db, user, workspace.id, invitationId)
    const invitation = await getWorkspaceInvitation(db, user, invitationId)
    return json(invitationJson(workspace.id, invitation))
  },

  'organization/remove-member': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      OrganizationId.extend({ memberIdOrEmail: z.string().min(1).max(254) }),
    )
    const organizationId = input.organizationId ?? user.activeWorkspaceId
    const member = await memberOf(user, organizationId, input.memberIdOrEmail)
    await removeMember(database(), user, organizationId, member.userId)
    return json({ member })
  },

  'organization/update-member-role': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      OrganizationId.extend({ memberId: MemberIdSchema.shape.userId, role: RoleInput }),
    )
    const organizationId = input.organizationId ?? user.activeWorkspaceId
    await changeRole(database(), user, organizationId, input.memberId, input.role)
    return json(await memberOf(user, organizationId, input.memberId))
  },

  'organization/leave': async (args) => {
    const { user } = await requireSession(args)
    const { organizationId } = await body(args.request, z.object({ organizationId: WorkspaceIdSchema }))
    const member = await ownMember(user, organizationId)
    await leaveWorkspace(database(), user, organizationId)
    return json(member)
  },
}

export const ORGANIZATION_PEOPLE_ENDPOINTS = { GET, POST }
