import { OAUTH_PROVIDERS, type OAuthProvider } from '~/auth/oauth-providers'
import { expireCookie, isSecureSite, readCookie, serializeCookie } from '~/utils/cookies.server'
import { safeRedirect } from '~/utils/redirect.server'

/**
 * The short-lived cookies that carry a sign-in from its start to /login/callback: ours (which
 * provider, and where to return) and each strategy's state (with Google's PKCE verifier).
 */

export const DEFAULT_SIGNED_IN_PATH = '/dashboard'

/** Remembers which provider a flow went to and where it returns; read back by the callback. */
const FLOW_COOKIE = 'tw_oauth'
/** Each provider's state (and PKCE verifier), kept by its strategy. */
const STATE_COOKIES: Record<OAuthProvider, string> = { github: 'tw_oauth_github', google: 'tw_oauth_google' }
/** Long enough to sign in at the provider (and maybe create an account there), short enough to go stale. */
const FLOW_MAX_AGE_SECONDS = 10 * 60

/** The cookie options a remix-auth strategy takes for its state cookie. */
export function stateCookieOptions(provider: OAuthProvider) {
  return {
    name: STATE_COOKIES[provider],
    maxAge: FLOW_MAX_AGE_SECONDS,
    ...(isSecureSite() ? { secure: true as const } : {}),
  }
}

/** Our cookie for a flow that has just started. */
export function flowCookie(provider: OAuthProvider, redirectTo: string | undefined) {
  const flow = new URLSearchParams({ provider, redirect: safeRedirect(redirectTo, DEFAULT_SIGNED_IN_PATH) })
  return serializeCookie(FLOW_COOKIE, flow.toString(), { maxAgeSeconds: FLOW_MAX_AGE_SECONDS })
}

export function readFlow(request: Request) {
  const value = readCookie(request.headers.get('Cookie'), FLOW_COOKIE)
  if (!value) return null
  const params = new URLSearchParams(value)
  const provider = params.get('provider')
  if (!OAUTH_PROVIDERS.some((known) => known === provider)) return null
  return {
    provider: provider as OAuthProvider,
    // Checked again on the way back: the cookie is only as trustworthy as the browser holding it.
    redirectTo: safeRedirect(params.get('redirect'), DEFAULT_SIGNED_IN_PATH),
  }
}

/**
 * The Set-Cookie headers that end a flow, whatever its outcome (its cookies are single-use):
 * ours, and the strategies' state cookies — the OAuth2 strategy names one per attempt
 * (`tw_oauth_google:<state>`), so all the request carries go.
 */
export function oauthCookiesToClear(request: Request) {
  const prefixes = Object.values(STATE_COOKIES)
  const names = new Set([FLOW_COOKIE, ...prefixes])
  for (const part of (request.headers.get('Cookie') ?? '').split(';')) {
    const name = part.slice(0, part.indexOf('=')).trim()
    if (prefixes.some((prefix) => name.startsWith(`${prefix}:`))) names.add(name)
  }
  return [...names].map(expireCookie)
}
