/**
 * Passkeys need the WebAuthn API, which only scripts reach; a browser without it (or with
 * JavaScript off) signs in the other ways. The ceremonies and @simplewebauthn/browser load on
 * first use, so pages that offer passkeys carry a few hundred bytes until then.
 */
export function canUsePasskeys() {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
}

export function loadCeremonies() {
  return import('./ceremonies')
}

/** Whether the browser offers passkeys in a field's autofill (conditional mediation), asked natively. */
export async function canAutofillPasskeys() {
  if (!canUsePasskeys()) return false
  return (await window.PublicKeyCredential.isConditionalMediationAvailable?.()) === true
}
