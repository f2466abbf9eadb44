import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useFetcher } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { ActionForm } from '~/components/action-form'
import { Avatar } from '~/components/avatar'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList, Field } from '~/components/forms'
import { Badge } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { database } from '~/db/client.server'
import { replyWithError } from '~/routes/refusals.server'
import {
  ChangePasswordSchema,
  DELETE_ACCOUNT_PHRASE,
  DeleteAccountSchema,
  UpdateProfileSchema,
} from '~/services/account-schemas'
import {
  changePassword,
  deleteAccount,
  endSession,
  getAccount,
  updateProfile,
} from '~/services/accounts.server'
import { getMentionEmailSetting, setMentionEmailSetting } from '~/services/mention-emails.server'
import { listSessions, revokeAllSessions, revokeOtherSessions } from '~/services/sessions.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { describeUserAgent } from '~/utils/user-agent'
import { z } from '~/utils/zod'
import type { Route } from './+types/settings'

export const meta: Route.MetaFunction = () => [{ title: 'Settings | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, session } = await requireUser(request, context, url)
  const db = database()
  const [account, sessions, emailOnMention] = await Promise.all([
    getAccount(db, user.id),
    listSessions(db, user.id),
    getMentionEmailSetting(db, user.id),
  ])
  return {
    account,
    emailOnMention,
    sessions: sessions
      .map((s) => ({
        id: s.id,
        device: describeUserAgent(s.userAgent),
        ip: s.ip,
        lastSeenAt: s.lastSeenAt.toISOString(),
        createdAt: s.createdAt.toISOString(),
        isCurrent: s.id === session.id,
      }))
      .sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent) || b.lastSeenAt.localeCompare(a.lastSeenAt)),
  }
}

const SessionIdSchema = z.object({ sessionId: z.string().min(1, 'Choose a session') })

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, context, url)
  const db = database()
  const formData = await readFormData(request)
  const intent = formData.get('intent')

  switch (intent) {
    case 'update-profile': {
      const submission = parseWithZod(formData, { schema: UpdateProfileSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      await updateProfile(db, user.id, submission.value)
      return redirectWithToast('/settings', { type: 'success', title: 'Profile updated' })
    }
    case 'change-password': {
      const submission = parseWithZod(formData, { schema: ChangePasswordSchema })
      const hidden = ['currentPassword', 'newPassword', 'confirmPassword']
      if (submission.status !== 'success') {
        return data({ intent, result: submission.reply({ hideFields: hidden }) }, { status: 400 })
      }
      try {
        await changePassword(db, user.id, session.id, submission.value)
      } catch (error) {
        return replyWithError(submission, error, { hideFields: hidden, body: { intent } })
      }
      return redirectWithToast('/settings', {
        type: 'success',
        title: 'Password changed',
        description: 'Your other devices were signed out.',
      })
    }
    case 'revoke-session': {
      const submission = parseWithZod(formData, { schema: SessionIdSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        await endSession(db, user.id, submission.value.sessionId)
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
      if (submission.value.sessionId === session.id) {
        return redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie() } })
      }
      return redirectWithToast('/settings', { type: 'success', title: 'Session revoked' })
    }
    case 'mention-emails': {
      // A checkbox sends its value only when ticked: no field means off.
      const isOn = formData.get('emailOnMention') === 'on'
      await setMentionEmailSetting(db, user.id, isOn)
      return redirectWithToast('/settings', {
        type: 'success',
        title: isOn ? 'Mention e-mails are on' : 'Mention e-mails are off',
      })
    }
    case 'revoke-other-sessions': {
      await revokeOtherSessions(db, user.id, session.id)
      return redirectWithToast('/settings', { type: 'success', title: 'Signed out of every other device' })
    }
    case 'revoke-all-sessions': {
      await revokeAllSessions(db, user.id)
      return redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie() } })
    }
    case 'delete-account': {
      const submission = parseWithZod(formData, { schema: DeleteAccountSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        await deleteAccount(db, user.id, submission.value)
      } catch (error) {
        return replyWithError(submission, error, { hideFields: ['password'], body: { intent } })
      }
      const headers = new Headers({ 'Set-Cookie': clearSessionCookie() })
      return redirectWithToast('/', { type: 'success', title: 'Your account was deleted' }, { headers })
    }
    default:
      return data({ intent: null, result: null }, { status: 400 })
  }
}

type ActionData = Route.ComponentProps['actionData']

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { account, sessions, emailOnMention } = loaderData
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div className="flex items-center gap-4">
        <Avatar name={account.name} image={account.image} className="size-14 text-lg" />
        <div>
          <h1 className="text-2xl font-semibold">Settings</h1>
          <p className="text-sm text-muted-foreground">{account.email}</p>
        </div>
      </div>
      <ProfileSection account={account} actionData={actionData} />
      <PasswordSection hasPassword={account.hasPassword} actionData={actionData} />
      <NotificationsSection emailOnMention={emailOnMention} />
      <SessionsSection sessions={sessions} actionData={actionData} />
      <DeleteSection hasPassword={account.hasPassword} actionData={actionData} />
    </main>
  )
}

function Section({
  title,
  description,
  children,
}: {
  title: string
  description: string
  children: React.ReactNode
}) {
  // Suffixed: "delete-account" is also that form's id, and its inputs find their form by id.
  const id = `${title.toLowerCase().replaceAll(' ', '-')}-heading`
  return (
    <section aria-labelledby={id} className="rounded-lg border bg-card p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      <div className="mt-5">{children}</div>
    </section>
  )
}

function ProfileSection({
  account,
  actionData,
}: {
  account: { name: string; image: string | null }
  actionData: ActionData
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
    <Section title="Profile" description="Your name and picture, as others see them on tasks and comments.">
      <ActionForm intent="update-profile" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label="Name" meta={fields.name} autoComplete="name" />
        <Field label="Image URL" meta={fields.image} type="url" placeholder="https://…" />
        <StatusButton isPending={isPending} pendingText="Saving…" className="self-start">
          Save profile
        </StatusButton>
      </ActionForm>
    </Section>
  )
}

function PasswordSection({ hasPassword, actionData }: { hasPassword: boolean; actionData: ActionData }) {
  const isPending = useIsPending({ intent: 'change-password' })
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: resultFor(actionData, 'change-password'),
    constraint: getZodConstraint(ChangePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  })
  return (
    <Section
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
    </Section>
  )
}

function NotificationsSection({ emailOnMention }: { emailOnMention: boolean }) {
  const fetcher = useFetcher()
  const isPending = fetcher.state !== 'idle'
  return (
    <Section
      title="Notifications"
      description="Mentions always wait in your notifications, behind the bell at the top of every page. While you are away, they can reach you by e-mail too: several in one e-mail, a few minutes after the first."
    >
      <ActionForm
        fetcher={fetcher}
        action="/settings"
        intent="mention-emails"
        className="flex flex-col gap-4"
        preventScrollReset
      >
        {/* Keyed by the saved value, so the box shows it again after saving. */}
        <Checkbox
          key={String(emailOnMention)}
          name="emailOnMention"
          value="on"
          defaultChecked={emailOnMention}
          label="E-mail me when I'm mentioned"
          className="gap-3"
        />
        <StatusButton isPending={isPending} pendingText="Saving…" variant="outline" className="self-start">
          Save notification settings
        </StatusButton>
      </ActionForm>
    </Section>
  )
}

type SessionRow = Route.ComponentProps['loaderData']['sessions'][number]

function SessionsSection({ sessions, actionData }: { sessions: SessionRow[]; actionData: ActionData }) {
  const errors = resultFor(actionData, 'revoke-session')?.error
  return (
    <Section
      title="Sessions"
      description="Devices signed in to your account. Revoke any you do not recognise."
    >
      <ErrorList errors={errors ? Object.values(errors).flatMap((messages) => messages ?? []) : undefined} />
      <ul className="divide-y rounded-md border">
        {sessions.map((session) => (
          <li
            key={session.id}
            className="flex flex-wrap items-center justify-between gap-3 p-3"
            data-testid="session-row"
          >
            <div>
              <p className="font-medium">
                {session.device}
                {session.isCurrent ? (
                  <Badge tone="primary-soft" className="ml-2 font-normal">
                    This device
                  </Badge>
                ) : null}
              </p>
              <p className="text-xs text-muted-foreground">
                Last seen <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
                {session.ip ? ` · ${session.ip}` : ''}
              </p>
            </div>
            <RevokeSessionForm session={session} />
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <SessionsForm intent="revoke-other-sessions" disabled={sessions.length < 2}>
          Sign out other devices
        </SessionsForm>
        <SessionsForm intent="revoke-all-sessions">Sign out everywhere</SessionsForm>
      </div>
    </Section>
  )
}

function RevokeSessionForm({ session }: { session: SessionRow }) {
  const isPending = useIsPending({ intent: 'revoke-session', fields: { sessionId: session.id } })
  return (
    <ActionForm intent="revoke-session">
      <input type="hidden" name="sessionId" value={session.id} />
      <StatusButton
        isPending={isPending}
        pendingText="Revoking…"
        variant="outline"
        size="sm"
        aria-label={`Revoke ${session.device} session`}
      >
        Revoke
      </StatusButton>
    </ActionForm>
  )
}

/** Signs out of several sessions at once: every other device, or every device. */
function SessionsForm({
  intent,
  disabled,
  children,
}: {
  intent: 'revoke-other-sessions' | 'revoke-all-sessions'
  disabled?: boolean
  children: React.ReactNode
}) {
  const isPending = useIsPending({ intent })
  return (
    <ActionForm intent={intent}>
      <StatusButton isPending={isPending} pendingText="Signing out…" variant="outline" disabled={disabled}>
        {children}
      </StatusButton>
    </ActionForm>
  )
}

function DeleteSection({ hasPassword, actionData }: { hasPassword: boolean; actionData: ActionData }) {
  const isPending = useIsPending({ intent: 'delete-account' })
  const [form, fields] = useForm({
    id: 'delete-account',
    lastResult: resultFor(actionData, 'delete-account'),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
  })
  return (
    <Section
      title="Delete account"
      description="Deletes your account with its tasks, comments and chats. This cannot be undone."
    >
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
    </Section>
  )
}

function formatDateTime(iso: string) {
  const formatted = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  })
  return `${formatted.format(new Date(iso))} UTC`
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
