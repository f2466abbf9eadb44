import { type GitHub, OAuth2Client, OAuth2RequestError, type OAuth2Tokens } from 'arctic'
import { GitHubStrategy } from 'remix-auth-github'
import type { OAuthProfile } from '~/services/accounts.server'
import type { ProviderSettings } from './config.server'

/**
 * remix-auth-github talks to GitHub through arctic's `GitHub` client, whose endpoints are
 * hard-coded. This strategy keeps everything else (state cookie, callback checks) and swaps the
 * client for one whose endpoints come from configuration.
 */
export class ConfiguredGitHubStrategy extends GitHubStrategy<OAuthProfile> {
  constructor(
    options: GitHubStrategy.ConstructorOptions,
    endpoints: ProviderSettings,
    verify: ConstructorParameters<typeof GitHubStrategy<OAuthProfile>>[1],
  ) {
    super(options, verify)
    // The adapter has GitHub's public methods; the cast only hides GitHub's private fields.
    this.client = new ConfiguredGitHubClient(endpoints, options.redirectURI.toString()) as unknown as GitHub
  }
}

class ConfiguredGitHubClient {
  private readonly client: OAuth2Client

  constructor(
    private readonly endpoints: ProviderSettings,
    redirectURI: string,
  ) {
    this.client = new OAuth2Client(endpoints.clientId, endpoints.clientSecret, redirectURI)
  }

  createAuthorizationURL(state: string, scopes: string[]) {
    return this.client.createAuthorizationURL(this.endpoints.authorizeUrl, state, scopes)
  }

  async validateAuthorizationCode(code: string) {
    return rejectErrorBody(await this.client.validateAuthorizationCode(this.endpoints.tokenUrl, code, null))
  }

  async refreshAccessToken(refreshToken: string) {
    return rejectErrorBody(await this.client.refreshAccessToken(this.endpoints.tokenUrl, refreshToken, []))
  }
}

/** GitHub reports a bad code with 200 and an error body, which the generic client takes for tokens. */
function rejectErrorBody(tokens: OAuth2Tokens) {
  const body = tokens.data as Record<string, unknown>
  if (typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? body.error_description : null
    const uri = typeof body.error_uri === 'string' ? body.error_uri : null
    throw new OAuth2RequestError(body.error, description, uri, null)
  }
  return tokens
}
