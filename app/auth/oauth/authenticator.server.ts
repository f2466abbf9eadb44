import { Authenticator } from 'remix-auth'
import { CodeChallengeMethod, OAuth2Strategy } from 'remix-auth-oauth2'
import { OAUTH_CALLBACK_PATH } from '~/auth/oauth-providers'
import { type Env, env } from '~/env.server'
import type { OAuthProfile } from '~/services/accounts.server'
import { providerSettings } from './config.server'
import { stateCookieOptions } from './flow-cookies.server'
import { ConfiguredGitHubStrategy } from './github-client.server'
import { githubProfile, googleProfile } from './profiles.server'

/**
 * The remix-auth strategies for the configured providers, each returning the provider's profile.
 * Built on first use and again whenever the configuration object changes (tests reset it).
 */
let built: { env: Env; authenticator: Authenticator<OAuthProfile> } | undefined

export function oauthAuthenticator() {
  const e = env()
  if (built?.env !== e) built = { env: e, authenticator: buildAuthenticator(e) }
  return built.authenticator
}

function buildAuthenticator(e: Env) {
  const settings = providerSettings(e)
  const redirectURI = `${e.BASE_URL}${OAUTH_CALLBACK_PATH}`
  const authenticator = new Authenticator<OAuthProfile>()

  if (settings.github) {
    const apiUrl = e.GITHUB_API_URL.replace(/\/+$/, '')
    authenticator.use(
      new ConfiguredGitHubStrategy(
        {
          clientId: settings.github.clientId,
          clientSecret: settings.github.clientSecret,
          redirectURI,
          scopes: ['read:user', 'user:email'],
          cookie: stateCookieOptions('github'),
        },
        settings.github,
        ({ tokens }) => githubProfile(apiUrl, tokens.accessToken()),
      ),
      'github',
    )
  }

  if (settings.google) {
    const userInfoUrl = e.GOOGLE_USERINFO_URL
    authenticator.use(
      new OAuth2Strategy<OAuthProfile>(
        {
          clientId: settings.google.clientId,
          clientSecret: settings.google.clientSecret,
          authorizationEndpoint: settings.google.authorizeUrl,
          tokenEndpoint: settings.google.tokenUrl,
          redirectURI,
          scopes: ['openid', 'email', 'profile'],
          codeChallengeMethod: CodeChallengeMethod.S256,
          cookie: stateCookieOptions('google'),
        },
        ({ tokens }) => googleProfile(userInfoUrl, tokens.accessToken()),
      ),
      'google',
    )
  }
  return authenticator
}
