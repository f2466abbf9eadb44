import { data, Link } from 'react-router'
import { getUser, requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList } from '~/components/forms'
import { Alert } from '~/components/ui/alert'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { Forbidden, NotFound } from '~/services/errors'
import {
  acceptInvitation,
  closedMessage,
  getInvitation,
  type InvitationView,
  rejectInvitation,
} from '~/services/workspaces/invitations.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { resultFor } from '~/utils/intent-result'
import { formatLongDate } from '~/utils/long-date'
import { useIsPending } from '~/utils/pending'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import type { Route } from './+types/invitation'

export const meta: Route.MetaFunction = () => [
  { title: 'Invitation | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

const PRIVATE = { 'Cache-Control': 'private, no-store' }

export const headers: Route.HeadersFunction = () => PRIVATE

/**
 * /invitations/<id>, the link of an invitation e-mail. Signed in with the verified address it was
 * sent to, a person sees the workspace, who invited them and as what, and accepts or declines it.
 * A visitor is asked to sign in or sign up and comes back here; anyone signed in with another
 * address is told no such invitation is theirs — as for an id that does not exist, so the page
 * gives nothing away — and the invited person whose address is not verified yet is asked to verify it.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const here = `/invitations/${encodeURIComponent(params.invitationId)}`
  const user = await getUser(request, context)
  if (!user) {
    const back = new URLSearchParams({ redirect: here })
    return data(
      { state: 'signed-out' as const, signInHref: `/login?${back}`, signUpHref: `/signup?${back}` },
      { headers: PRIVATE },
    )
  }
  try {
    const invitation = await getInvitation(database(), user, params.invitationId)
    return data(
      { state: 'invitation' as const, invitation, closed: closedMessage(invitation) ?? null },
      { headers: PRIVATE },
    )
  } catch (error) {
    if (error instanceof NotFound) {
      return data({ state: 'not-found' as const, email: user.email }, { status: 404, headers: PRIVATE })
    }
    if (error instanceof Forbidden) {
      return data({ state: 'unverified' as const, email: user.email }, { status: 403, headers: PRIVATE })
    }
    throw error
  }
}

const AnswerIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('accept') }),
  z.object({ intent: z.literal('decline') }),
])

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const { invitationId } = params
  return handleForm(await readFormData(request), AnswerIntent, {
    accept: async () => {
      const { workspace, wasMember } = await acceptInvitation(db, user, invitationId)
      return redirectWithToast(`/workspaces/${encodeURIComponent(workspace.slug)}/members`, {
        type: 'success',
        title: wasMember ? `You are already in ${workspace.name}` : `You joined ${workspace.name}`,
      })
    },
    decline: async () => {
      await rejectInvitation(db, user, invitationId)
      return redirectWithToast(url.pathname, { type: 'info', title: 'Invitation declined' })
    },
  })
}

export default function Invitation({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  if (loaderData.state === 'signed-out') {
    return (
      <AuthCard
        title="You have an invitation"
        description="Sign in with the e-mail address it was sent to, to see it."
      >
        <div className="flex flex-col gap-3">
          <Link to={loaderData.signInHref} className={buttonClasses('default')}>
            Sign in
          </Link>
          <Link to={loaderData.signUpHref} className={buttonClasses('outline')}>
            Create an account
          </Link>
        </div>
        <p className="text-sm text-muted-foreground">
          New to Threadwork? Create your account with the invited address, verify it, and you come back here.
        </p>
      </AuthCard>
    )
  }
  if (loaderData.state === 'not-found') {
    return (
      <AuthCard title="Invitation not found">
        <Alert>
          This invitation is not for <strong className="break-all">{loaderData.email}</strong>, or it does not
          exist. If it was sent to another of your e-mail addresses, sign out and sign in with that one.
        </Alert>
        <Link to="/task" className={buttonClasses('outline')}>
          Go to your tasks
        </Link>
      </AuthCard>
    )
  }
  if (loaderData.state === 'unverified') {
    return (
      <AuthCard title="Verify your e-mail address">
        <Alert>
          This invitation was sent to <strong className="break-all">{loaderData.email}</strong>. Verify that
          address to see it: open the link in the e-mail we sent you, then come back to this page.
        </Alert>
        <ResendVerification />
      </AuthCard>
    )
  }
  const { invitation, closed } = loaderData
  const errors = [
    ...(Object.values(resultFor(actionData, 'accept')?.error ?? {}).flat() as string[]),
    ...(Object.values(resultFor(actionData, 'decline')?.error ?? {}).flat() as string[]),
  ]
  return (
    <AuthCard title={`Join ${invitation.workspace.name}`}>
      <InvitationFacts invitation={invitation} />
      {closed ? (
        <>
          <Alert>{closed}</Alert>
          {invitation.status === 'accepted' ? (
            <Link
              to={`/workspaces/${encodeURIComponent(invitation.workspace.slug)}/members`}
              className={buttonClasses('default')}
            >
              Open {invitation.workspace.name}
            </Link>
          ) : (
            <Link to="/task" className={buttonClasses('outline')}>
              Go to your tasks
            </Link>
          )}
        </>
      ) : (
        <>
          <ErrorList errors={errors} />
          <AnswerButtons />
        </>
      )}
    </AuthCard>
  )
}

function InvitationFacts({ invitation }: { invitation: InvitationView }) {
  return (
    <dl className="grid gap-2 text-sm" data-testid="invitation-facts">
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">Workspace</dt>
        <dd className="font-medium break-words">{invitation.workspace.name}</dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">Invited by</dt>
        <dd className="font-medium break-words">{invitation.inviterName}</dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">Role</dt>
        <dd className="font-medium">{invitation.role === 'admin' ? 'Admin' : 'Member'}</dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">{invitation.isExpired ? 'Expired' : 'Expires'}</dt>
        <dd>
          <time dateTime={invitation.expiresAt}>{formatLongDate(invitation.expiresAt)}</time>
        </dd>
      </div>
    </dl>
  )
}

/** Sends a new verification link and comes back here, as the banner above the page does. */
function ResendVerification() {
  const isSending = useIsPending({ formAction: '/email/request-verification' })
  return (
    <ActionForm action="/email/request-verification" redirectTo>
      <StatusButton isPending={isSending} pendingText="Sending…" className="w-full">
        Send a new verification link
      </StatusButton>
    </ActionForm>
  )
}

function AnswerButtons() {
  const isAccepting = useIsPending({ intent: 'accept' })
  const isDeclining = useIsPending({ intent: 'decline' })
  return (
    <div className="flex flex-wrap gap-3">
      <ActionForm intent="accept" className="flex-1">
        <StatusButton
          isPending={isAccepting}
          pendingText="Joining…"
          disabled={isDeclining}
          className="w-full"
        >
          Accept
        </StatusButton>
      </ActionForm>
      <ActionForm intent="decline" className="flex-1">
        <StatusButton
          isPending={isDeclining}
          pendingText="Declining…"
          disabled={isAccepting}
          variant="outline"
          className="w-full"
        >
          Decline
        </StatusButton>
      </ActionForm>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
