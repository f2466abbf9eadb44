import { ActionForm } from '~/components/action-form'
import { ErrorList } from '~/components/forms'
import { StatusButton } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { useIsPending } from '~/utils/pending'

export type InvitationView = {
  status: 'needs-login' | 'pending' | 'sent'
  githubLogin: string | null
  lastError: string | null
}

const BILLING_ACTION = '/settings/billing'

/**
 * How far the buyer's invitation to the private repository got, and — while we do not know their
 * GitHub username — the form that asks for it. The form posts to /settings/billing from any page
 * and comes back to it.
 */
export function RepositoryInvitation({
  invitation,
  formError,
}: {
  invitation: InvitationView
  formError?: string | undefined
}) {
  const isPending = useIsPending({ formAction: BILLING_ACTION, intent: 'github-login' })
  if (invitation.status === 'sent') {
    return (
      <p className="text-sm" data-testid="invitation-status">
        Invitation sent to <strong>{invitation.githubLogin}</strong>. Accept it on GitHub (check the e-mail of
        that account) to open the repository.
      </p>
    )
  }
  if (invitation.status === 'pending') {
    return (
      <p className="text-sm" data-testid="invitation-status">
        Inviting {invitation.githubLogin ? <strong>{invitation.githubLogin}</strong> : 'your GitHub account'}…
        {invitation.lastError
          ? ' GitHub did not take it yet; we keep trying and it will show here.'
          : ' This takes a minute at most.'}
      </p>
    )
  }
  const errors = formError ? [formError] : invitation.lastError ? [invitation.lastError] : undefined
  return (
    <ActionForm action={BILLING_ACTION} intent="github-login" redirectTo className="flex flex-col gap-3">
      <p className="text-sm" data-testid="invitation-status">
        Which GitHub account should we invite to the repository?
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="github-login">GitHub username</Label>
          <Input
            id="github-login"
            name="githubLogin"
            required
            maxLength={39}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="octocat"
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? 'github-login-error' : undefined}
          />
        </div>
        <StatusButton isPending={isPending} pendingText="Sending…">
          Send the invitation
        </StatusButton>
      </div>
      <ErrorList id="github-login-error" errors={errors} />
    </ActionForm>
  )
}
