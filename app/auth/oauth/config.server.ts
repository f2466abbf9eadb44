import { OAUTH_PROVIDERS, type OAuthProvider } from '~/auth/oauth-providers'
import { type Env, env } from '~/env.server'

/**
 * Which providers are configured, and where their endpoints are. Every endpoint comes from
 * configuration, so tests (and a self-hosted identity server) can point a provider anywhere.
 */

export type ProviderSettings = {
  clientId: string
  clientSecret: string
  authorizeUrl: string
  tokenUrl: string
}

export function providerSettings(e: Env): Partial<Record<OAuthProvider, ProviderSettings>> {
  const settings: Partial<Record<OAuthProvider, ProviderSettings>> = {}
  if (e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET) {
    settings.github = {
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
      authorizeUrl: e.GITHUB_AUTHORIZE_URL,
      tokenUrl: e.GITHUB_TOKEN_URL,
    }
  }
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) {
    settings.google = {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      authorizeUrl: e.GOOGLE_AUTHORIZE_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
    }
  }
  return settings
}

/** The providers with a client id and secret; the sign-in pages show a button for each. */
export function configuredProviders(): OAuthProvider[] {
  const settings = providerSettings(env())
  return OAUTH_PROVIDERS.filter((provider) => settings[provider] !== undefined)
}

/**
 * The authorization servers' origins. A sign-in form posts here and is redirected there, and
 * browsers apply the CSP's form-action to every redirect that follows a form submission, so the
 * CSP must allow these origins or the browser blocks the sign-in.
 */
export function oauthAuthorizeOrigins(): string[] {
  const settings = providerSettings(env())
  const origins = OAUTH_PROVIDERS.flatMap((provider) => {
    const url = settings[provider]?.authorizeUrl
    return url ? [new URL(url).origin] : []
  })
  return [...new Set(origins)]
}
