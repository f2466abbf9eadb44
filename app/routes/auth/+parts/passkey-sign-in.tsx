import { useEffect, useRef, useState } from 'react'
import { useCsrfToken } from '~/components/csrf-input'
import { ErrorList } from '~/components/forms'
import { canAutofillPasskeys, canUsePasskeys, loadCeremonies } from '~/components/passkeys/load'
import { Button } from '~/components/ui/button'
import { useHydrated } from '~/utils/use-hydrated'

/** A little under the server's five minutes, so the autofill never offers a spent challenge. */
const AUTOFILL_RENEW_MS = 4.5 * 60 * 1000

/**
 * "Sign in with a passkey" on /login, and the passkeys the browser offers in the e-mail field's
 * autofill (conditional mediation: the field says `autocomplete="username webauthn"`). The
 * autofill request waits from the page's load; the button cancels it before asking on its own,
 * and starts it again when its own request ends without signing in. Passkeys need JavaScript:
 * without it, or in a browser without WebAuthn, the button is disabled and says so.
 */
export function PasskeySignIn({ redirect }: { redirect: string }) {
  const csrfToken = useCsrfToken()
  const isHydrated = useHydrated()
  const isSupported = isHydrated && canUsePasskeys()
  const [isPending, setIsPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const autofill = usePasskeyAutofill(csrfToken, redirect, setError, isSupported)

  async function signIn() {
    setIsPending(true)
    setError(null)
    const ceremonies = await loadCeremonies()
    autofill.stop()
    ceremonies.cancelPasskeyRequest()
    try {
      window.location.assign(await ceremonies.signInWithPasskey(csrfToken, redirect))
    } catch (failure) {
      setIsPending(false)
      if (!ceremonies.isCancelled(failure)) setError(messageOf(failure))
      autofill.start()
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={!isSupported || isPending}
        onClick={signIn}
      >
        {isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </Button>
      {isHydrated && !isSupported ? (
        <p className="text-xs text-muted-foreground">This browser cannot use passkeys.</p>
      ) : null}
      <noscript>
        <p className="text-xs text-muted-foreground">
          Passkeys need JavaScript. Sign in with your e-mail below.
        </p>
      </noscript>
      <ErrorList errors={error ? [error] : undefined} />
    </div>
  )
}

/**
 * Keeps a conditional-mediation request waiting while the page is open, where the browser
 * supports it, renewed before its challenge expires. `stop` and `start` let the button take over.
 */
function usePasskeyAutofill(
  csrfToken: string,
  redirect: string,
  onError: (message: string) => void,
  isSupported: boolean,
) {
  const control = useRef({ start() {}, stop() {} })

  useEffect(() => {
    if (!isSupported) return
    const state = control.current
    // Each start is a generation; a request of an older one ending says nothing.
    let generation = 0
    let renewal: ReturnType<typeof setTimeout> | undefined
    state.stop = () => {
      generation++
      clearTimeout(renewal)
    }
    state.start = () => {
      state.stop()
      const mine = generation
      void (async () => {
        // The library loads only for a browser that can offer passkeys in the field.
        if (!(await canAutofillPasskeys()) || mine !== generation) return
        const ceremonies = await loadCeremonies()
        if (mine !== generation) return
        renewal = setTimeout(state.start, AUTOFILL_RENEW_MS)
        try {
          window.location.assign(await ceremonies.signInWithPasskey(csrfToken, redirect, { autofill: true }))
        } catch (failure) {
          // Not started again on a refusal: the button is there to try once more.
          if (mine === generation && ceremonies.isRefusedChoice(failure)) onError(messageOf(failure))
        }
      })()
    }
    state.start()
    return () => {
      state.stop()
      void loadCeremonies().then((ceremonies) => ceremonies.cancelPasskeyRequest())
    }
  }, [csrfToken, redirect, onError, isSupported])

  return { start: () => control.current.start(), stop: () => control.current.stop() }
}

function messageOf(failure: unknown) {
  return failure instanceof Error && failure.message ? failure.message : 'Signing in with a passkey failed.'
}
