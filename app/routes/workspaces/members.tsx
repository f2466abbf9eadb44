import { data, Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { Alert } from '~/components/ui/alert'
import { database } from '~/db/client.server'
import { managesWorkspace, WORKSPACE_LIMITS } from '~/domain/workspaces'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { NotFound } from '~/services/errors'
import {
  InvitationIdSchema,
  InviteMemberSchema,
  MemberIdSchema,
  MemberRoleSchema,
} from '~/services/workspaces/invitation-schemas'
import {
  inviteMember,
  listInvitations,
  peopleAllowance,
  resendInvitation,
  revokeInvitation,
} from '~/services/workspaces/invitations.server'
import { changeRole, removeMember } from '~/services/workspaces/members.server'
import { WORKSPACE_NOT_FOUND } from '~/services/workspaces/membership.server'
import { getWorkspaceBySlug, listMembers } from '~/services/workspaces/reads.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import { InvitationsSection, InviteSection } from './+parts/invitation-sections'
import { MembersSection } from './+parts/member-list'
import type { Route } from './+types/members'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `People of ${loaderData.workspace.name}` : 'Workspace not found'} | Threadwork` },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = keepRetryAfter

/**
 * /workspaces/<slug>/members: who is in a workspace and with which role. Its owner and admins
 * also change roles, remove people, invite by e-mail address and see, resend and revoke the
 * invitations waiting for an answer; everyone else in it reads the list. A workspace the person
 * is not in is a 404, as one that does not exist.
 */
export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  try {
    const workspace = await getWorkspaceBySlug(db, user, params.slug)
    const isManager = managesWorkspace(workspace.role) && !workspace.isPersonal
    const [members, invitations, allowance] = await Promise.all([
      listMembers(db, user, workspace.id),
      isManager ? listInvitations(db, user, workspace.id) : [],
      peopleAllowance(db, user, workspace.id),
    ])
    return data(
      { workspace, members, invitations, allowance, viewerId: user.id },
      { headers: { 'Cache-Control': 'private, no-store' } },
    )
  } catch (error) {
    if (error instanceof NotFound) throw data(WORKSPACE_NOT_FOUND, { status: 404 })
    throw error
  }
}

/** The page's forms, each named by its hidden `intent` field. */
const MembersIntent = z.discriminatedUnion('intent', [
  InviteMemberSchema.safeExtend({ intent: z.literal('invite') }),
  MemberRoleSchema.safeExtend({ intent: z.literal('change-role') }),
  MemberIdSchema.safeExtend({ intent: z.literal('remove-member') }),
  InvitationIdSchema.safeExtend({ intent: z.literal('revoke-invitation') }),
  InvitationIdSchema.safeExtend({ intent: z.literal('resend-invitation') }),
])

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const here = url.pathname
  // The slug names the workspace; one the person is not in answers 404 through the form's refusal.
  const workspaceId = async () => (await getWorkspaceBySlug(db, user, params.slug)).id
  return handleForm(await readFormData(request), MembersIntent, {
    invite: async ({ email, role }) => {
      await inviteMember(db, user, await workspaceId(), { email, role })
      return redirectWithToast(here, {
        type: 'success',
        title: 'Invitation sent',
        description: `${email} has ${WORKSPACE_LIMITS.invitationDays} days to accept it.`,
      })
    },
    'change-role': async ({ userId, role }) => {
      await changeRole(db, user, await workspaceId(), userId, role)
      return redirectWithToast(here, { type: 'success', title: 'Role changed' })
    },
    'remove-member': async ({ userId }) => {
      await removeMember(db, user, await workspaceId(), userId)
      return redirectWithToast(here, { type: 'success', title: 'Removed from the workspace' })
    },
    'revoke-invitation': async ({ invitationId }) => {
      await revokeInvitation(db, user, await workspaceId(), invitationId)
      return redirectWithToast(here, { type: 'success', title: 'Invitation revoked' })
    },
    'resend-invitation': async ({ invitationId }) => {
      const invitation = await resendInvitation(db, user, await workspaceId(), invitationId)
      return redirectWithToast(here, {
        type: 'success',
        title: 'Invitation sent again',
        description: `${invitation.email} has ${WORKSPACE_LIMITS.invitationDays} days to accept it.`,
      })
    },
  })
}

export default function WorkspaceMembers({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  const { workspace, members, invitations, allowance, viewerId } = loaderData
  const isManager = managesWorkspace(workspace.role) && !workspace.isPersonal
  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 py-10 sm:py-12">
      <div>
        <h1 className="text-2xl font-semibold break-words">People of {workspace.name}</h1>
        <nav aria-label="Workspace" className="mt-1 flex flex-wrap gap-x-4 text-sm">
          <Link to="/workspaces" className="text-muted-foreground underline-offset-4 hover:underline">
            All workspaces
          </Link>
          <Link
            to={`/workspaces/${encodeURIComponent(workspace.slug)}/settings`}
            className="text-muted-foreground underline-offset-4 hover:underline"
          >
            Settings of {workspace.name}
          </Link>
        </nav>
        <p className="mt-1 text-sm text-muted-foreground" data-testid="allowance">
          {workspace.isPersonal
            ? 'Your personal workspace.'
            : `${peopleLine(allowance)} ${STANDING[workspace.role]}`}
        </p>
      </div>
      {workspace.isPersonal ? (
        <Alert>
          This is your personal workspace: it is yours alone and cannot be shared. To work with others, use a
          team workspace.
        </Alert>
      ) : null}
      <MembersSection
        members={members}
        viewerId={viewerId}
        viewerRole={workspace.role}
        workspaceName={workspace.name}
        actionData={actionData}
      />
      {isManager ? (
        <>
          {/* Keyed by the newest invitation: one sent empties the form, one refused keeps what was typed. */}
          <InviteSection
            key={invitations[0]?.id ?? 'none'}
            viewerRole={workspace.role}
            actionData={actionData}
          />
          <InvitationsSection invitations={invitations} actionData={actionData} />
        </>
      ) : workspace.isPersonal ? null : (
        <p className="text-sm text-muted-foreground">
          The workspace’s owner and admins invite people and change who is in it.
        </p>
      )}
    </main>
  )
}

const STANDING = {
  owner: 'You are its owner.',
  admin: 'You are an admin.',
  member: 'You are a member.',
} as const

/** "2 people of the 3 the Free plan allows, pending invitations counted." */
function peopleLine({ people, limit, planName }: { people: number; limit: number | null; planName: string }) {
  const counted = `${people} ${people === 1 ? 'person' : 'people'}`
  const allowed = limit === null ? '' : ` of the ${limit} the ${planName} plan allows`
  return `${counted}${allowed}, pending invitations counted.`
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
