import { redirect } from 'react-router'
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
import { handleForm } from '~/http/form-action.server'
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
import { successionsOf } from '~/services/workspaces/succession.server'
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
  const [account, sessions, emailSettings, supportSignIns, passkeys, twoFactor, successions] =
    await Promise.all([
      getAccount(db, user.id),
      listSessions(db, user.id),
      getEmailSettings(db, user.id),
      supportSignInsOf(db, user.id),
      listPasskeys(db, user.id),
      twoFactorStatus(db, user.id),
      successionsOf(db, user.id),
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
    handovers: successions.map(({ workspaceId, name, successor }) => ({
      workspaceId,
      name,
      successor: successor && { name: successor.name },
    })),
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

/** The page's forms, each named by its hidden `intent` field. */
const SettingsIntent = z.discriminatedUnion('intent', [
  UpdateProfileSchema.safeExtend({ intent: z.literal('update-profile') }),
  ChangePasswordSchema.safeExtend({ intent: z.literal('change-password') }),
  SessionIdSchema.safeExtend({ intent: z.literal('revoke-session') }),
  RenamePasskeySchema.safeExtend({ intent: z.literal('rename-passkey') }),
  PasskeyIdSchema.safeExtend({ intent: z.literal('remove-passkey') }),
  // A checkbox sends its value only when ticked: no field means off.
  z.object({ intent: z.literal('mention-emails'), emailOnMention: z.string().optional() }),
  z.object({ intent: z.literal('due-emails'), emailOnDue: z.string().optional() }),
  z.object({ intent: z.literal('revoke-other-sessions') }),
  z.object({ intent: z.literal('revoke-all-sessions') }),
  DeleteAccountSchema.safeExtend({ intent: z.literal('delete-account') }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, context, url)
  const db = database()
  const setEmails = async (intent: keyof typeof EMAIL_SETTINGS, value: string | undefined) => {
    const { setting, title } = EMAIL_SETTINGS[intent]
    const isOn = value === 'on'
    await setEmailSetting(db, user.id, setting, isOn)
    return redirectWithToast('/settings', { type: 'success', title: `${title} are ${isOn ? 'on' : 'off'}` })
  }
  const signedOut = () => redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie() } })
  return handleForm(
    await readFormData(request),
    SettingsIntent,
    {
      'update-profile': async ({ intent: _intent, ...profile }) => {
        await updateProfile(db, user.id, profile)
        return redirectWithToast('/settings', { type: 'success', title: 'Profile updated' })
      },
      'change-password': async ({ intent: _intent, ...change }) => {
        await changePassword(db, user.id, session.id, change)
        return redirectWithToast('/settings', {
          type: 'success',
          title: 'Password changed',
          description: 'Your other devices were signed out.',
        })
      },
      'revoke-session': async ({ sessionId }) => {
        await endSession(db, user.id, sessionId)
        if (sessionId === session.id) return signedOut()
        return redirectWithToast('/settings', { type: 'success', title: 'Session revoked' })
      },
      'rename-passkey': async ({ passkeyId, name }) => {
        await renamePasskey(db, user.id, passkeyId, name)
        return redirectWithToast('/settings', { type: 'success', title: 'Passkey renamed' })
      },
      'remove-passkey': async ({ passkeyId }) => {
        await removePasskey(db, user.id, passkeyId)
        return redirectWithToast('/settings', { type: 'success', title: 'Passkey removed' })
      },
      'mention-emails': async ({ intent, emailOnMention }) => setEmails(intent, emailOnMention),
      'due-emails': async ({ intent, emailOnDue }) => setEmails(intent, emailOnDue),
      'revoke-other-sessions': async () => {
        await revokeOtherSessions(db, user.id, session.id)
        return redirectWithToast('/settings', { type: 'success', title: 'Signed out of every other device' })
      },
      'revoke-all-sessions': async () => {
        await revokeAllSessions(db, user.id)
        return signedOut()
      },
      'delete-account': async ({ intent: _intent, ...confirmation }) => {
        await deleteAccount(db, user.id, confirmation)
        const headers = new Headers({ 'Set-Cookie': clearSessionCookie() })
        return redirectWithToast('/', { type: 'success', title: 'Your account was deleted' }, { headers })
      },
    },
    { hideFields: ['currentPassword', 'newPassword', 'confirmPassword', 'password'] },
  )
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
      <DeleteSection
        hasPassword={account.hasPassword}
        handovers={loaderData.handovers}
        actionData={actionData}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
