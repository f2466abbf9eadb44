import type { ReactNode } from 'react'
import { ActionButton, ActionForm } from '~/components/action-form'
import { ErrorList } from '~/components/forms'
import { Badge } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { type SettingsActionData, SettingsSection } from './section'

/** A signed-in device as the settings page lists it. */
export type SessionRow = {
  id: string
  device: string
  /** "Password + two-factor code", "GitHub", "Passkey"…; null for sessions from before it was recorded. */
  signedInWith: string | null
  ip: string | null
  lastSeenAt: string
  createdAt: string
  isCurrent: boolean
  /** Opened by Threadwork support signing in as this person (/admin). */
  isSupport: boolean
}

/** The devices signed in to the account, each revocable, and signing out of several at once. */
export function SessionsSection({
  sessions,
  supportSignIns,
  actionData,
}: {
  sessions: SessionRow[]
  /** When support signed in as this person, newest first (from the admin audit log). */
  supportSignIns: { at: string }[]
  actionData: SettingsActionData
}) {
  const errors = resultFor(actionData, 'revoke-session')?.error
  return (
    <SettingsSection
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
                {session.device}{' '}
                {session.isCurrent ? (
                  <Badge tone="primary-soft" weight="normal" className="ml-1">
                    This device
                  </Badge>
                ) : null}{' '}
                {session.isSupport ? (
                  <Badge tone="sky" weight="normal" className="ml-1">
                    Support
                  </Badge>
                ) : null}
              </p>
              <p className="text-xs text-muted-foreground">
                Last seen <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
                {session.ip ? ` · ${session.ip}` : ''}
                {session.signedInWith ? ` · Signed in with ${session.signedInWith}` : ''}
              </p>
            </div>
            <ActionButton
              intent="revoke-session"
              fields={{ sessionId: session.id }}
              label="Revoke"
              pendingText="Revoking…"
              accessibleName={`Revoke ${session.device} session`}
            />
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <SessionsForm intent="revoke-other-sessions" disabled={sessions.length < 2}>
          Sign out other devices
        </SessionsForm>
        <SessionsForm intent="revoke-all-sessions">Sign out everywhere</SessionsForm>
      </div>
      {supportSignIns.length > 0 ? (
        <div className="mt-6">
          <h3 className="text-sm font-medium">Support sign-ins</h3>
          <ul className="mt-2 space-y-1 text-sm text-muted-foreground" data-testid="support-sign-ins">
            {supportSignIns.map((signIn) => (
              <li key={signIn.at}>
                Threadwork support signed in as you on{' '}
                <time dateTime={signIn.at}>{formatDateTime(signIn.at)}</time>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </SettingsSection>
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
  children: ReactNode
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

export function formatDateTime(iso: string) {
  const formatted = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  })
  return `${formatted.format(new Date(iso))} UTC`
}
