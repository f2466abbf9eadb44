import { type OAuthProvider, oauthStartPath, PROVIDER_NAMES } from '~/auth/oauth-providers'
import { oauthAuthenticator } from './authenticator.server'
import { OAUTH_EXPIRED_MESSAGE, OAuthFlowError, providerErrorMessage, toFlowError } from './errors.server'
import { flowCookie, readFlow } from './flow-cookies.server'

/**
 * Sign-in with GitHub and Google, from the start to the callback: remix-auth strategies whose
 * every endpoint comes from configuration (so tests can point them at a local provider), the
 * short-lived cookies that carry a flow from its start to /login/callback, and the mapping of what
 * can go wrong to messages people can act on. Which account a provider identity opens is decided
 * by `signInWithOAuth` in the account service.
 */

/**
 * Starts a sign-in: the provider's authorization URL and the cookies the callback will need
 * (the strategy's state and PKCE verifier; our provider and return path). The HTML route
 * redirects there; an API can hand the URL to its client.
 */
export async function startOAuth(provider: OAuthProvider, request: Request, redirectTo?: string) {
  const authenticator = oauthAuthenticator()
  if (!authenticator.get(provider)) {
    throw new OAuthFlowError(`Sign-in with ${PROVIDER_NAMES[provider]} is not available.`, 404, provider)
  }
  // A URL without `state` tells the strategy to start. Only the cookies go along: the Google
  // strategy keeps other tabs' pending states from its cookie.
  const start = new Request(new URL(oauthStartPath(provider), request.url), {
    headers: { Cookie: request.headers.get('Cookie') ?? '' },
  })
  try {
    await authenticator.authenticate(provider, start)
  } catch (thrown) {
    const location = thrown instanceof Response ? thrown.headers.get('Location') : null
    if (!(thrown instanceof Response) || !location) throw thrown
    const headers = new Headers()
    for (const cookie of thrown.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
    headers.append('Set-Cookie', flowCookie(provider, redirectTo))
    return { url: location, headers }
  }
  throw new Error(`The ${provider} strategy did not redirect to the provider`)
}

/**
 * Finishes a sign-in at the callback: checks the state, exchanges the code and reads the
 * provider's profile. Whatever the person can retry becomes an `OAuthFlowError`.
 */
export async function finishOAuth(request: Request) {
  const url = new URL(request.url)
  const flow = readFlow(request)
  const provider = flow?.provider ?? null
  const redirectTo = flow?.redirectTo ?? null
  const name = provider ? PROVIDER_NAMES[provider] : 'the provider'

  const error = url.searchParams.get('error')
  if (error) {
    throw new OAuthFlowError(
      providerErrorMessage(name, error, url.searchParams.get('error_description')),
      400,
      provider,
      redirectTo,
    )
  }
  // Without state the strategy would start a new flow instead of finishing one.
  if (!flow || !url.searchParams.get('state')) {
    throw new OAuthFlowError(OAUTH_EXPIRED_MESSAGE, 400, provider, redirectTo)
  }
  const authenticator = oauthAuthenticator()
  if (!authenticator.get(flow.provider)) {
    throw new OAuthFlowError(`Sign-in with ${name} is not available.`, 404, provider, redirectTo)
  }
  try {
    const profile = await authenticator.authenticate(flow.provider, request)
    return { provider: flow.provider, profile, redirectTo: flow.redirectTo }
  } catch (thrown) {
    throw toFlowError(thrown, flow.provider, flow.redirectTo)
  }
}
