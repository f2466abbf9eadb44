import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ActionForm } from '~/components/action-form'
import { ErrorList, Field } from '~/components/forms'
import { StatusButton } from '~/components/ui/button'
import {
  ChangePasswordSchema,
  DELETE_ACCOUNT_PHRASE,
  DeleteAccountSchema,
  UpdateProfileSchema,
} from '~/services/account-schemas'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { type SettingsActionData, SettingsSection } from './section'

/**
 * The settings forms about the account itself: profile, password and deletion. Each validates
 * in the browser with the schema the server checks again, and shows the server's refusal next
 * to its fields.
 */

export function ProfileSection({
  account,
  actionData,
}: {
  account: { name: string; image: string | null }
  actionData: SettingsActionData
}) {
  const isPending = useIsPending({ intent: 'update-profile' })
  const [form, fields] = useForm({
    id: 'update-profile',
    lastResult: resultFor(actionData, 'update-profile'),
    constraint: getZodConstraint(UpdateProfileSchema),
    defaultValue: { name: account.name, image: account.image ?? '' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateProfileSchema }),
  })
  return (
    <SettingsSection
      title="Profile"
      description="Your name and picture, as others see them on tasks and comments."
    >
      <ActionForm intent="update-profile" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label="Name" meta={fields.name} autoComplete="name" />
        <Field label="Image URL" meta={fields.image} type="url" placeholder="https://…" />
        <StatusButton isPending={isPending} pendingText="Saving…" className="self-start">
          Save profile
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

export function PasswordSection({
  hasPassword,
  actionData,
}: {
  hasPassword: boolean
  actionData: SettingsActionData
}) {
  const isPending = useIsPending({ intent: 'change-password' })
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: resultFor(actionData, 'change-password'),
    constraint: getZodConstraint(ChangePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  })
  return (
    <SettingsSection
      title="Password"
      description={
        hasPassword
          ? 'Changing your password signs out every other device.'
          : 'You sign in with GitHub or Google. Set a password to sign in with your e-mail too.'
      }
    >
      <ActionForm intent="change-password" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        {hasPassword ? (
          <Field
            label="Current password"
            meta={fields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
        ) : null}
        <Field label="New password" meta={fields.newPassword} type="password" autoComplete="new-password" />
        <Field
          label="Repeat new password"
          meta={fields.confirmPassword}
          type="password"
          autoComplete="new-password"
        />
        <StatusButton isPending={isPending} pendingText="Saving…" className="self-start">
          {hasPassword ? 'Change password' : 'Set password'}
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

/** A team workspace the person owns, and who owns it once their account is deleted. */
type Handover = { workspaceId: string; name: string; successor: { name: string } | null }

export function DeleteSection({
  hasPassword,
  handovers,
  actionData,
}: {
  hasPassword: boolean
  handovers: Handover[]
  actionData: SettingsActionData
}) {
  const isPending = useIsPending({ intent: 'delete-account' })
  const [form, fields] = useForm({
    id: 'delete-account',
    lastResult: resultFor(actionData, 'delete-account'),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
  })
  return (
    <SettingsSection
      title="Delete account"
      description="Deletes your account with its tasks, comments and chats. This cannot be undone."
    >
      {handovers.length > 0 ? (
        <div className="mb-4 text-sm">
          <p id="delete-account-workspaces">Workspaces you own:</p>
          <ul aria-labelledby="delete-account-workspaces" className="mt-1 list-disc pl-5">
            {handovers.map(({ workspaceId, name, successor }) => (
              <li key={workspaceId}>
                <strong>{name}</strong>{' '}
                {successor ? `passes to ${successor.name || 'its next member'}` : 'is deleted with its tasks'}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ActionForm intent="delete-account" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        {hasPassword ? (
          <Field
            label="Confirm with your password"
            meta={fields.password}
            type="password"
            autoComplete="current-password"
          />
        ) : (
          <Field
            label={`Type "${DELETE_ACCOUNT_PHRASE}" to confirm`}
            meta={fields.confirmation}
            autoComplete="off"
          />
        )}
        <StatusButton
          isPending={isPending}
          pendingText="Deleting…"
          variant="destructive"
          className="self-start"
        >
          Delete my account
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}
