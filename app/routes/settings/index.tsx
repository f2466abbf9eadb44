import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { Avatar } from '~/components/avatar'
import { RouteErrorScreen } from '~/components/error-screens'
import { DeleteSection, PasswordSection, ProfileSection } from '~/components/settings/account-sections'
import { NotificationsSection } from '~/components/settings/notifications-section'
import { PasskeysSection } from '~/components/settings/passkeys-section'
import { SessionsSection } from '~/components/settings/sessions-section'
import { TwoFactorSection } from '~/components/settings/two-factor-section'
import { database } from '~/db/client.server'
import { PASSKEY_NAME_MAX } from '~/domain/constants'
import { replyWithError } from '~/http/refusals.server'
import { ChangePasswordSchema, DeleteAccountSchema, UpdateProfileSchema } from '~/services/account-schemas'
import { supportSignInsOf } from '~/services/admin/audit.server'
import { listPasskeys, removePasskey, renamePasskey } from '~/services/passkeys.server'
import {
  changePassword,
  deleteAccount,
  endSession,
  getAccount,
  getEmailSettings,
  setEmailSetting,
  updateProfile,
} from '~/services/profile.server'
import { listSessions, revokeAllSessions, revokeOtherSessions } from '~/services/sessions.server'
import { METHOD_NAMES } from '~/services/sign-in-alerts.server'
import { twoFactorStatus } from '~/services/two-factor.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { describeUserAgent } from '~/utils/user-agent'
import { z } from '~/utils/zod'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = () => [{ title: 'Settings | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, session } = await requireUser(request, context, url)
  const db = database()
  const [account, sessions, emailSettings, supportSignIns, passkeys, twoFactor] = await Promise.all([
    getAccount(db, user.id),
    listSessions(db, user.id),
    getEmailSettings(db, user.id),
    supportSignInsOf(db, user.id),
    listPasskeys(db, user.id),
    twoFactorStatus(db, user.id),
  ])
  return {
    account,
    ...emailSettings,
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    })),
    twoFactor,
    sessions: sessions
      .map((s) => ({
        id: s.id,
        device: describeUserAgent(s.userAgent),
        signedInWith: s.method
          ? `${METHOD_NAMES[s.method]}${s.isTwoFactor ? ' + two-factor code' : ''}`
          : null,
        ip: s.ip,
        lastSeenAt: s.lastSeenAt.toISOString(),
        createdAt: s.createdAt.toISOString(),
        isCurrent: s.id === session.id,
        isSupport: s.impersonatorId !== null,
      }))
      .sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent) || b.lastSeenAt.localeCompare(a.lastSeenAt)),
    supportSignIns: supportSignIns.map((signIn) => ({ at: signIn.createdAt.toISOString() })),
  }
}

/** The Notifications section's forms: each intent, the column its checkbox sets, and its toast. */
const EMAIL_SETTINGS = {
  'mention-emails': { setting: 'emailOnMention', title: 'Mention e-mails' },
  'due-emails': { setting: 'emailOnDue', title: 'Due-date reminders' },
} as const

const SessionIdSchema = z.object({ sessionId: z.string().min(1, 'Choose a session') })
const PasskeyIdSchema = z.object({ passkeyId: z.string().min(1, 'Choose a passkey') })
const RenamePasskeySchema = PasskeyIdSchema.extend({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(PASSKEY_NAME_MAX, `Name must be at most ${PASSKEY_NAME_MAX} characters`),
})

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
    case 'rename-passkey': {
      const submission = parseWithZod(formData, { schema: RenamePasskeySchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        await renamePasskey(db, user.id, submission.value.passkeyId, submission.value.name)
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
      return redirectWithToast('/settings', { type: 'success', title: 'Passkey renamed' })
    }
    case 'remove-passkey': {
      const submission = parseWithZod(formData, { schema: PasskeyIdSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        await removePasskey(db, user.id, submission.value.passkeyId)
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
      return redirectWithToast('/settings', { type: 'success', title: 'Passkey removed' })
    }
    case 'mention-emails':
    case 'due-emails': {
      const { setting, title } = EMAIL_SETTINGS[intent]
      // A checkbox sends its value only when ticked: no field means off.
      const isOn = formData.get(setting) === 'on'
      await setEmailSetting(db, user.id, setting, isOn)
      return redirectWithToast('/settings', { type: 'success', title: `${title} are ${isOn ? 'on' : 'off'}` })
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

export default function Settings({ loaderData, actionData: answered }: Route.ComponentProps) {
  const { account, sessions, passkeys, emailOnMention, emailOnDue, twoFactor } = loaderData
  const actionData = useKeptActionData(answered)
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div className="flex items-center gap-4">
        <Avatar name={account.name} image={account.image} size="xl" />
        <div>
          <h1 className="text-2xl font-semibold">Settings</h1>
          <p className="text-sm text-muted-foreground">{account.email}</p>
        </div>
      </div>
      <ProfileSection account={account} actionData={actionData} />
      <PasswordSection hasPassword={account.hasPassword} actionData={actionData} />
      <PasskeysSection passkeys={passkeys} actionData={actionData} />
      <TwoFactorSection status={twoFactor.status} recoveryCodesLeft={twoFactor.recoveryCodesLeft} />
      <NotificationsSection emailOnMention={emailOnMention} emailOnDue={emailOnDue} />
      <SessionsSection
        sessions={sessions}
        supportSignIns={loaderData.supportSignIns}
        actionData={actionData}
      />
      <DeleteSection hasPassword={account.hasPassword} actionData={actionData} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
