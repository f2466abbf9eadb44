import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ActionButton, ActionForm } from '~/components/action-form'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { type SettingsActionData, SettingsSection } from '~/components/settings/section'
import { Badge } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { INVITATION_ROLES, mayInviteAs, WORKSPACE_LIMITS, type WorkspaceRole } from '~/domain/workspaces'
import { InviteMemberSchema } from '~/services/workspaces/invitation-schemas'
import type { PendingInvitationView } from '~/services/workspaces/invitations.server'
import { resultFor } from '~/utils/intent-result'
import { formatLongDate } from '~/utils/long-date'
import { useIsPending } from '~/utils/pending'
import { ROLE_LABELS, refusalsOf } from './member-list'

/**
 * Inviting someone by e-mail address, as a member or (the owner only) as an admin: they get an
 * e-mail with a link that works for `WORKSPACE_LIMITS.invitationDays` days.
 */
export function InviteSection({
  viewerRole,
  actionData,
}: {
  viewerRole: WorkspaceRole
  actionData: SettingsActionData
}) {
  const isPending = useIsPending({ intent: 'invite' })
  const roles = INVITATION_ROLES.filter((role) => mayInviteAs(viewerRole, role))
  const [form, fields] = useForm({
    id: 'invite',
    lastResult: resultFor(actionData, 'invite'),
    constraint: getZodConstraint(InviteMemberSchema),
    defaultValue: { role: 'member' },
    shouldRevalidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteMemberSchema }),
  })
  return (
    <SettingsSection
      title="Invite someone"
      description={`They get an e-mail with a link to accept, valid for ${WORKSPACE_LIMITS.invitationDays} days. Only the person who verified that address can accept it.`}
    >
      <ActionForm intent="invite" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field
            label="E-mail address"
            type="email"
            meta={fields.email}
            autoComplete="off"
            spellCheck={false}
          />
          <SelectField
            label="Role"
            meta={fields.role}
            options={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
          />
        </div>
        {viewerRole === 'owner' ? null : (
          <p className="text-xs text-muted-foreground">Only the workspace’s owner invites admins.</p>
        )}
        <StatusButton isPending={isPending} pendingText="Sending…" className="self-start">
          Send invitation
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

/** The invitations waiting for an answer: each can be sent again (a new expiry) or revoked. */
export function InvitationsSection({
  invitations,
  actionData,
}: {
  invitations: PendingInvitationView[]
  actionData: SettingsActionData
}) {
  const errors = [
    ...(refusalsOf(actionData, 'revoke-invitation') ?? []),
    ...(refusalsOf(actionData, 'resend-invitation') ?? []),
  ]
  return (
    <SettingsSection title="Pending invitations" description="Sent, and not answered yet.">
      <ErrorList errors={errors} />
      {invitations.length === 0 ? (
        <p className="text-sm text-muted-foreground">No pending invitations.</p>
      ) : (
        <ul className="mt-2 divide-y rounded-md border" aria-label="Pending invitations">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-wrap items-center justify-between gap-3 p-3"
              data-testid="invitation-row"
            >
              <div className="min-w-0 flex-1 basis-64">
                <p className="font-medium break-all">
                  {invitation.email}{' '}
                  <Badge weight="normal" className="ml-1">
                    {ROLE_LABELS[invitation.role]}
                  </Badge>{' '}
                  {invitation.isExpired ? (
                    <Badge tone="amber" weight="normal" className="ml-1">
                      Expired
                    </Badge>
                  ) : null}
                </p>
                <p className="text-xs text-muted-foreground">
                  Invited by {invitation.inviterName} · {invitation.isExpired ? 'expired' : 'expires'}{' '}
                  <time dateTime={invitation.expiresAt}>{formatLongDate(invitation.expiresAt)}</time>
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <ActionButton
                  intent="resend-invitation"
                  fields={{ invitationId: invitation.id }}
                  label="Resend"
                  pendingText="Sending…"
                  accessibleName={`Resend the invitation to ${invitation.email}`}
                />
                <ActionButton
                  intent="revoke-invitation"
                  fields={{ invitationId: invitation.id }}
                  label="Revoke"
                  pendingText="Revoking…"
                  accessibleName={`Revoke the invitation to ${invitation.email}`}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  )
}
