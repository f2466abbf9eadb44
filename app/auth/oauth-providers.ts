/**
 * The OAuth providers Threadwork knows, shared by the server (strategies, routes) and the browser
 * (the sign-in buttons). Which of them are usable depends on configuration: see
 * `configuredProviders()` in oauth/config.server.ts.
 */
export const OAUTH_PROVIDERS = ['github', 'google'] as const

export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]

export const PROVIDER_NAMES: Record<OAuthProvider, string> = { github: 'GitHub', google: 'Google' }

export function isOAuthProvider(value: unknown): value is OAuthProvider {
  return typeof value === 'string' && (OAUTH_PROVIDERS as readonly string[]).includes(value)
}

/** Where a sign-in with this provider starts: a POST from a form, or a GET (a link, an API). */
export function oauthStartPath(provider: OAuthProvider) {
  return `/login/${provider}`
}

/** The redirect URI registered with every provider, relative to BASE_URL. */
export const OAUTH_CALLBACK_PATH = '/login/callback'
