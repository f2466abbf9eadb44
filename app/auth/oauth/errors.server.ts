import {
  ArcticFetchError,
  OAuth2RequestError,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from 'arctic'
import { type OAuthProvider, PROVIDER_NAMES } from '~/auth/oauth-providers'
import { ProviderUnavailable } from './profiles.server'

/**
 * What can go wrong in a sign-in, as messages people can act on. Whatever the person can retry
 * becomes an `OAuthFlowError`; anything else stays a server error.
 */

/** Something stopped the flow that the person can understand and retry; never a server error. */
export class OAuthFlowError extends Error {
  override name = 'OAuthFlowError'
  constructor(
    message: string,
    readonly status: number,
    readonly provider: OAuthProvider | null,
    readonly redirectTo: string | null = null,
  ) {
    super(message)
  }
}

export const OAUTH_EXPIRED_MESSAGE =
  'This sign-in attempt expired or was started in another browser. Please start again.'

// The strategies' own messages when the callback does not match the cookie they set.
const STATE_FAILURES = new Set([
  'Missing state on cookie.',
  "State in URL doesn't match state in cookie.",
  'Missing code in the URL',
  'Missing code verifier on cookie.',
])

export function toFlowError(thrown: unknown, provider: OAuthProvider, redirectTo: string) {
  const name = PROVIDER_NAMES[provider]
  if (thrown instanceof OAuthFlowError) return thrown
  if (thrown instanceof OAuth2RequestError) {
    return new OAuthFlowError(
      providerErrorMessage(name, thrown.code, thrown.description),
      400,
      provider,
      redirectTo,
    )
  }
  if (
    (thrown instanceof RangeError || thrown instanceof ReferenceError) &&
    STATE_FAILURES.has(thrown.message)
  ) {
    return new OAuthFlowError(OAUTH_EXPIRED_MESSAGE, 400, provider, redirectTo)
  }
  if (
    thrown instanceof ProviderUnavailable ||
    thrown instanceof ArcticFetchError ||
    thrown instanceof UnexpectedResponseError ||
    thrown instanceof UnexpectedErrorResponseBodyError
  ) {
    console.error('OAuth provider error', thrown)
    return new OAuthFlowError(
      `We could not complete the sign-in with ${name}: it did not answer as expected. Please try again in a moment.`,
      502,
      provider,
      redirectTo,
    )
  }
  return thrown
}

export function providerErrorMessage(name: string, code: string, description: string | null) {
  if (code === 'access_denied') return `Sign-in with ${name} was cancelled. Nothing was changed.`
  // invalid_grant: the code was used already (a reload, the back button) or has expired.
  if (code === 'invalid_grant' || code === 'bad_verification_code') return OAUTH_EXPIRED_MESSAGE
  const detail = description ? `: ${description}` : ''
  return `${name} did not complete the sign-in (${code}${detail}). Please start again.`
}
