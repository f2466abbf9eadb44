import { useState } from 'react'
import { useRevalidator } from 'react-router'
import { ActionButton, ActionForm } from '~/components/action-form'
import { useCsrfToken } from '~/components/csrf-input'
import { ErrorList } from '~/components/forms'
import { canUsePasskeys, loadCeremonies } from '~/components/passkeys/load'
import { Button, StatusButton } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { useHydrated } from '~/utils/use-hydrated'
import { type SettingsActionData, SettingsSection } from './section'
import { formatDateTime } from './sessions-section'

/** A passkey as the settings page lists it. */
export type PasskeyRow = { id: string; name: string; createdAt: string; lastUsedAt: string | null }

/**
 * The account's passkeys: each with when it was added and last used, renamed and removed by plain
 * forms; adding one needs the browser's WebAuthn API, so JavaScript, and the page says so without.
 */
export function PasskeysSection({
  passkeys,
  actionData,
}: {
  passkeys: PasskeyRow[]
  actionData: SettingsActionData
}) {
  const errors = [resultFor(actionData, 'rename-passkey'), resultFor(actionData, 'remove-passkey')].flatMap(
    (result) => Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []),
  )
  return (
    <SettingsSection
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a password. A passkey also stands in for two-factor sign-in."
    >
      <ErrorList errors={errors.length > 0 ? errors : undefined} />
      {passkeys.length > 0 ? (
        <ul className="mb-4 divide-y rounded-md border">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-col gap-3 p-3" data-testid="passkey-row">
              <div>
                <p className="font-medium">{passkey.name}</p>
                <p className="text-xs text-muted-foreground">
                  Added <time dateTime={passkey.createdAt}>{formatDateTime(passkey.createdAt)}</time>
                  {' · '}
                  {passkey.lastUsedAt ? (
                    <>
                      Last used{' '}
                      <time dateTime={passkey.lastUsedAt}>{formatDateTime(passkey.lastUsedAt)}</time>
                    </>
                  ) : (
                    'Never used'
                  )}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <RenamePasskeyForm passkey={passkey} />
                <ActionButton
                  intent="remove-passkey"
                  fields={{ passkeyId: passkey.id }}
                  label="Remove"
                  pendingText="Removing…"
                  accessibleName={`Remove ${passkey.name}`}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-muted-foreground">No passkeys yet.</p>
      )}
      <AddPasskey />
    </SettingsSection>
  )
}

function RenamePasskeyForm({ passkey }: { passkey: PasskeyRow }) {
  const isPending = useIsPending({ intent: 'rename-passkey', fields: { passkeyId: passkey.id } })
  return (
    <ActionForm intent="rename-passkey" className="flex flex-1 items-center gap-2">
      <input type="hidden" name="passkeyId" value={passkey.id} />
      <Input
        name="name"
        defaultValue={passkey.name}
        required
        aria-label={`Name of ${passkey.name}`}
        className="h-8 min-w-0 flex-1"
      />
      <StatusButton isPending={isPending} pendingText="Saving…" variant="outline" size="sm">
        Rename
      </StatusButton>
    </ActionForm>
  )
}

/** Makes a passkey on this device (the browser asks for the fingerprint, face or PIN) and lists it. */
function AddPasskey() {
  const csrfToken = useCsrfToken()
  const revalidator = useRevalidator()
  const isHydrated = useHydrated()
  const isSupported = isHydrated && canUsePasskeys()
  const [isPending, setIsPending] = useState(false)
  const [status, setStatus] = useState<{ error?: string; added?: string }>({})

  async function add() {
    setIsPending(true)
    setStatus({})
    const ceremonies = await loadCeremonies()
    try {
      const passkey = await ceremonies.createPasskey(csrfToken)
      setStatus({ added: passkey.name })
      await revalidator.revalidate()
    } catch (failure) {
      if (!ceremonies.isCancelled(failure)) {
        setStatus({ error: failure instanceof Error ? failure.message : 'The passkey was not added.' })
      }
    } finally {
      setIsPending(false)
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div>
        <Button type="button" variant="outline" disabled={!isSupported || isPending} onClick={add}>
          {isPending ? 'Waiting for your device…' : 'Add a passkey'}
        </Button>
      </div>
      {isHydrated && !isSupported ? (
        <p className="text-sm text-muted-foreground">This browser cannot create passkeys.</p>
      ) : null}
      <noscript>
        <p className="text-sm text-muted-foreground">
          Adding a passkey needs JavaScript, which is off in this browser. Renaming and removing work without
          it.
        </p>
      </noscript>
      <p role="status" className="text-sm text-muted-foreground">
        {status.added ? `Added “${status.added}”.` : null}
      </p>
      <ErrorList errors={status.error ? [status.error] : undefined} />
    </div>
  )
}
