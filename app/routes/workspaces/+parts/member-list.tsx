import { ActionButton, ActionForm } from '~/components/action-form'
import { Avatar } from '~/components/avatar'
import { ErrorList } from '~/components/forms'
import { type SettingsActionData, SettingsSection } from '~/components/settings/section'
import { Badge, type BadgeTone } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { INVITATION_ROLES, removalRefusal, roleChangeRefusal, type WorkspaceRole } from '~/domain/workspaces'
import type { MemberView } from '~/services/workspaces/reads.server'
import { resultFor } from '~/utils/intent-result'
import { formatLongDate } from '~/utils/long-date'
import { useIsPending } from '~/utils/pending'

export const ROLE_LABELS: Record<WorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' }
const ROLE_TONES: Record<WorkspaceRole, BadgeTone> = {
  owner: 'primary-soft',
  admin: 'sky',
  member: 'neutral',
}

/** The messages of a refused form of the page, whichever field they belong to. */
export function refusalsOf(actionData: SettingsActionData, intent: string) {
  const errors = resultFor(actionData, intent)?.error
  return errors ? Object.values(errors).flatMap((messages) => messages ?? []) : undefined
}

/**
 * Everyone in the workspace, owner first, with their role; beside each, what the reader may do to
 * them (the rules of app/domain/workspaces.ts decide, as the service does): the owner changes
 * anyone's role but their own, the owner and admins remove people, an admin only members.
 */
export function MembersSection({
  members,
  viewerId,
  viewerRole,
  workspaceName,
  actionData,
}: {
  members: MemberView[]
  viewerId: string
  viewerRole: WorkspaceRole
  workspaceName: string
  actionData: SettingsActionData
}) {
  const errors = [
    ...(refusalsOf(actionData, 'change-role') ?? []),
    ...(refusalsOf(actionData, 'remove-member') ?? []),
  ]
  return (
    <SettingsSection title="Members" description={`Everyone in ${workspaceName}, and their role.`}>
      <ErrorList errors={errors} />
      <ul className="mt-2 divide-y rounded-md border" aria-label="Members">
        {members.map((member) => {
          const isSelf = member.userId === viewerId
          const otherRole = member.role === 'admin' ? 'member' : 'admin'
          const mayChangeRole = roleChangeRefusal(viewerRole, member.role, otherRole) === undefined
          const mayRemove = removalRefusal(viewerRole, member.role, isSelf) === undefined
          return (
            <li
              key={member.userId}
              className="flex flex-wrap items-center justify-between gap-3 p-3"
              data-testid="member-row"
            >
              <div className="flex min-w-0 flex-1 basis-64 items-center gap-3">
                <Avatar name={member.name} image={member.image} />
                <div className="min-w-0">
                  <p className="font-medium break-words">
                    {member.name}{' '}
                    {isSelf ? (
                      <Badge weight="normal" className="ml-1">
                        You
                      </Badge>
                    ) : null}
                  </p>
                  <p className="text-xs break-all text-muted-foreground">
                    {member.email} · joined{' '}
                    <time dateTime={member.joinedAt}>{formatLongDate(member.joinedAt)}</time>
                  </p>
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {mayChangeRole ? (
                  <RoleForm member={member} />
                ) : (
                  <Badge tone={ROLE_TONES[member.role]} weight="medium">
                    {ROLE_LABELS[member.role]}
                  </Badge>
                )}
                {mayRemove ? (
                  <ActionButton
                    intent="remove-member"
                    fields={{ userId: member.userId }}
                    label="Remove"
                    pendingText="Removing…"
                    accessibleName={`Remove ${member.name}`}
                  />
                ) : null}
              </div>
            </li>
          )
        })}
      </ul>
    </SettingsSection>
  )
}

/** A member's role as a select and its button: a plain form, so it works without JavaScript. */
function RoleForm({ member }: { member: MemberView }) {
  const isPending = useIsPending({ intent: 'change-role', fields: { userId: member.userId } })
  const id = `role-${member.userId}`
  return (
    <ActionForm intent="change-role" className="flex items-center gap-2">
      <input type="hidden" name="userId" value={member.userId} />
      <label htmlFor={id} className="sr-only">
        Role of {member.name}
      </label>
      <Select id={id} name="role" size="sm" defaultValue={member.role}>
        {INVITATION_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </Select>
      <StatusButton
        isPending={isPending}
        pendingText="Saving…"
        variant="outline"
        size="sm"
        aria-label={`Change role of ${member.name}`}
      >
        Change role
      </StatusButton>
    </ActionForm>
  )
}
