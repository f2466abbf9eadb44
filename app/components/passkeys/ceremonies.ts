import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { startAuthentication, startRegistration, WebAuthnAbortService } from '@simplewebauthn/browser'

/**
 * The browser's half of the passkey ceremonies (docs/decisions/041-passkeys.md): ask
 * /api/passkeys for options, let the browser's WebAuthn API make or use the passkey, send back
 * its answer. Pages import this module lazily (`loadCeremonies()`), so @simplewebauthn/browser
 * is fetched only by a browser that can use passkeys, when it first needs them.
 */

/** A refusal worth showing: the server's message at one step of a ceremony. */
export class PasskeyError extends Error {
  override name = 'PasskeyError'
  constructor(
    message: string,
    readonly step: string,
  ) {
    super(message)
  }
}

async function post<Answer>(step: string, csrfToken: string, body: unknown = {}): Promise<Answer> {
  const response = await fetch(`/api/passkeys/${step}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-csrf-token': csrfToken },
    body: JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => null)) as { message?: string } | null
  if (!response.ok) throw new PasskeyError(answer?.message ?? 'Something went wrong. Try again.', step)
  return answer as Answer
}

/** Makes a passkey for the signed-in person on this device; answers its name. */
export async function createPasskey(csrfToken: string) {
  const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>('register-options', csrfToken)
  const response = await startRegistration({ optionsJSON })
  const { passkey } = await post<{ passkey: { id: string; name: string } }>('register', csrfToken, {
    response,
  })
  return passkey
}

/**
 * Signs in with a passkey the device holds, the browser asking which (no e-mail needed); answers
 * where to go. With `autofill`, the browser offers the passkeys in the e-mail field's suggestions
 * instead of a dialog (conditional mediation), and waits until one is picked.
 */
export async function signInWithPasskey(csrfToken: string, redirect: string, { autofill = false } = {}) {
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>('sign-in-options', csrfToken)
  // Starting a ceremony aborts any other still waiting (the autofill request, when a button asks).
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
  const { redirectTo } = await post<{ redirectTo: string }>('sign-in', csrfToken, { response, redirect })
  return redirectTo
}

/** Ends the ceremony still waiting (the autofill request), so another can start. */
export function cancelPasskeyRequest() {
  WebAuthnAbortService.cancelCeremony()
}

/**
 * True for the server's refusal of a passkey the person chose. The only failure the autofill
 * request reports: nobody asked for it, so its start failing (a browser that refuses this origin,
 * a busy server) is not news to them, and the button is still there to ask outright.
 */
export function isRefusedChoice(error: unknown) {
  return error instanceof PasskeyError && error.step === 'sign-in'
}

/**
 * True when the ceremony ended without a verdict: the person closed the browser's dialog, it timed
 * out, or another request replaced it. Nothing to report then.
 */
export function isCancelled(error: unknown) {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'NotAllowedError')
}
