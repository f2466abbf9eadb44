import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { requireUser } from '~/auth/context.server'
import { clearSessionCookie } from '~/auth/login.server'
import {
  ChangePasswordSchema,
  DELETE_ACCOUNT_PHRASE,
  DeleteAccountSchema,
  UpdateProfileSchema,
} from '~/auth/schemas'
import { listSessions, revokeAllSessions, revokeOtherSessions, revokeSession } from '~/auth/session.server'
import { Avatar } from '~/components/avatar'
import { CsrfInput } from '~/components/csrf-input'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList, Field } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { changePassword, deleteAccount, getAccount, updateProfile } from '~/services/accounts.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { replyWithError } from '~/utils/submission.server'
import { describeUserAgent } from '~/utils/user-agent'
import type { Route } from './+types/settings'

export const meta: Route.MetaFunction = () => [{ title: 'Settings | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, session } = await requireUser(request, context, url)
  const db = database()
  const [account, sessions] = await Promise.all([getAccount(db, user.id), listSessions(db, user.id)])
  return {
    account,
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
        return withIntent(intent, replyWithError(submission, error, hidden))
      }
      return redirectWithToast('/settings', {
        type: 'success',
        title: 'Password changed',
        description: 'Your other devices were signed out.',
      })
    }
    case 'revoke-session': {
      const parsed = SessionIdSchema.safeParse(Object.fromEntries(formData))
      if (!parsed.success) return data({ intent, result: null }, { status: 400 })
      if (parsed.data.sessionId === session.id) {
        await revokeSession(db, user.id, session.id)
        return redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie() } })
      }
      await revokeSession(db, user.id, parsed.data.sessionId)
      return redirectWithToast('/settings', { type: 'success', title: 'Session revoked' })
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
        return withIntent(intent, replyWithError(submission, error, ['password']))
      }
      const headers = new Headers({ 'Set-Cookie': clearSessionCookie() })
      return redirectWithToast('/', { type: 'success', title: 'Your account was deleted' }, { headers })
    }
    default:
      return data({ intent: null, result: null }, { status: 400 })
  }
}

/** Tags a refusal with its form's intent, keeping its status (400, 403, 429) and headers. */
function withIntent(intent: string, reply: ReturnType<typeof replyWithError>) {
  return data({ intent, ...reply.data }, reply.init ?? undefined)
}

type ActionData = Route.ComponentProps['actionData']
function resultFor(actionData: ActionData, intent: string) {
  return actionData && actionData.intent === intent && actionData.result ? actionData.result : undefined
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { account, sessions } = loaderData
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
      <SessionsSection sessions={sessions} />
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

function useIsSubmitting(intent: string) {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

function ProfileSection({
  account,
  actionData,
}: {
  account: { name: string; image: string | null }
  actionData: ActionData
}) {
  const isPending = useIsSubmitting('update-profile')
  const [form, fields] = useForm({
    id: 'update-profile',
    lastResult: resultFor(actionData, 'update-profile'),
    constraint: getZodConstraint(UpdateProfileSchema),
    defaultValue: { name: account.name, image: account.image ?? '' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateProfileSchema }),
  })
  return (
    <Section title="Profile" description="Your name and picture, as others see them on tasks and comments.">
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="update-profile" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label="Name" meta={fields.name} autoComplete="name" />
        <Field label="Image URL" meta={fields.image} type="url" placeholder="https://…" />
        <Button type="submit" className="self-start" disabled={isPending}>
          {isPending ? 'Saving…' : 'Save profile'}
        </Button>
      </Form>
    </Section>
  )
}

function PasswordSection({ hasPassword, actionData }: { hasPassword: boolean; actionData: ActionData }) {
  const isPending = useIsSubmitting('change-password')
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
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="change-password" />
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
        <Button type="submit" className="self-start" disabled={isPending}>
          {isPending ? 'Saving…' : hasPassword ? 'Change password' : 'Set password'}
        </Button>
      </Form>
    </Section>
  )
}

type SessionRow = Route.ComponentProps['loaderData']['sessions'][number]

function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  return (
    <Section
      title="Sessions"
      description="Devices signed in to your account. Revoke any you do not recognise."
    >
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
                  <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 text-xs text-primary">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-muted-foreground">
                Last seen <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
                {session.ip ? ` · ${session.ip}` : ''}
              </p>
            </div>
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="revoke-session" />
              <input type="hidden" name="sessionId" value={session.id} />
              <Button
                type="submit"
                variant="outline"
                size="sm"
                aria-label={`Revoke ${session.device} session`}
              >
                Revoke
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="revoke-other-sessions" />
          <Button type="submit" variant="outline" disabled={sessions.length < 2}>
            Sign out other devices
          </Button>
        </Form>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="revoke-all-sessions" />
          <Button type="submit" variant="outline">
            Sign out everywhere
          </Button>
        </Form>
      </div>
    </Section>
  )
}

function DeleteSection({ hasPassword, actionData }: { hasPassword: boolean; actionData: ActionData }) {
  const isPending = useIsSubmitting('delete-account')
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
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="delete-account" />
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
        <Button type="submit" variant="destructive" className="self-start" disabled={isPending}>
          {isPending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </Form>
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
