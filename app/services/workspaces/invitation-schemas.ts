import { INVITATION_ROLES } from '~/domain/workspaces'
import { z } from '~/utils/zod'
import { EmailSchema } from '../account-schemas'

/**
 * The forms of a workspace's people (/workspaces/<slug>/members, /invitations/<id>) and the
 * services' input: whom to invite and as what, which invitation, which member and their new role.
 * Messages are what people read next to the field.
 */

/** Why a role other than admin or member is refused: the owner is made only by a transfer. */
export const ROLE_REFUSED =
  'Choose admin or member: only a transfer of the workspace makes someone its owner.'

/** A role someone may be given by an invitation or a change of role. */
const InvitationRoleSchema = z.enum(INVITATION_ROLES, { error: ROLE_REFUSED })

export const InviteMemberSchema = z.object({ email: EmailSchema, role: InvitationRoleSchema })
export type InviteMember = z.output<typeof InviteMemberSchema>

const id = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(100, `${name} is not valid`)

export const InvitationIdSchema = z.object({ invitationId: id('Invitation') })

export const MemberIdSchema = z.object({ userId: id('Member') })

export const MemberRoleSchema = MemberIdSchema.extend({ role: InvitationRoleSchema })
