import {
  ArcticFetchError,
  type GitHub,
  OAuth2Client,
  OAuth2RequestError,
  type OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from 'arctic'
import { Authenticator } from 'remix-auth'
import { GitHubStrategy } from 'remix-auth-github'
import { CodeChallengeMethod, OAuth2Strategy } from 'remix-auth-oauth2'
import { type Env, env } from '~/env.server'
import { ImageUrlSchema } from '~/services/account-schemas'
import type { OAuthProfile } from '~/services/accounts.server'
import { expireCookie, isSecureSite, readCookie, serializeCookie } from '~/utils/cookies.server'
import { safeRedirect } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import {
  OAUTH_CALLBACK_PATH,
  OAUTH_PROVIDERS,
  type OAuthProvider,
  oauthStartPath,
  PROVIDER_NAMES,
} from './oauth-providers'

/**
 * Sign-in with GitHub and Google: remix-auth strategies whose every endpoint comes from
 * configuration (so tests can point them at a local provider), the short-lived cookies that carry
 * a flow from its start to /login/callback, and the mapping of what can go wrong to messages
 * people can act on. Which account a provider identity opens is decided by `signInWithOAuth`.
 */

export const DEFAULT_SIGNED_IN_PATH = '/dashboard'

/** Remembers which provider a flow went to and where it returns; read back by the callback. */
const FLOW_COOKIE = 'tw_oauth'
/** Each provider's state (and PKCE verifier), kept by its strategy. */
const STATE_COOKIES: Record<OAuthProvider, string> = { github: 'tw_oauth_github', google: 'tw_oauth_google' }
/** Long enough to sign in at the provider (and maybe create an account there), short enough to go stale. */
const FLOW_MAX_AGE_SECONDS = 10 * 60

const USER_AGENT = 'Threadwork'
const PROVIDER_TIMEOUT_MS = 10_000

// ── Configuration ───────────────────────────────────────────────────────────

type ProviderSettings = { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string }

function providerSettings(e: Env): Partial<Record<OAuthProvider, ProviderSettings>> {
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

// Built on first use and again whenever the configuration object changes (tests reset it).
let built: { env: Env; authenticator: Authenticator<OAuthProfile> } | undefined

function oauthAuthenticator() {
  const e = env()
  if (built?.env !== e) built = { env: e, authenticator: buildAuthenticator(e) }
  return built.authenticator
}

function buildAuthenticator(e: Env) {
  const settings = providerSettings(e)
  const redirectURI = `${e.BASE_URL}${OAUTH_CALLBACK_PATH}`
  const cookie = (provider: OAuthProvider) => ({
    name: STATE_COOKIES[provider],
    maxAge: FLOW_MAX_AGE_SECONDS,
    ...(isSecureSite() ? { secure: true as const } : {}),
  })
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
          cookie: cookie('github'),
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
          cookie: cookie('google'),
        },
        ({ tokens }) => googleProfile(userInfoUrl, tokens.accessToken()),
      ),
      'google',
    )
  }
  return authenticator
}

/**
 * remix-auth-github talks to GitHub through arctic's `GitHub` client, whose endpoints are
 * hard-coded. This strategy keeps everything else (state cookie, callback checks) and swaps the
 * client for one whose endpoints come from configuration.
 */
class ConfiguredGitHubStrategy extends GitHubStrategy<OAuthProfile> {
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

// ── Profiles ────────────────────────────────────────────────────────────────

/** The provider answered, but not with what we need (a failed request, an unexpected body). */
class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable'
}

async function fetchProviderJson<T>(url: string, accessToken: string, schema: z.ZodType<T>, accept: string) {
  let response: Response
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: accept, 'User-Agent': USER_AGENT },
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    })
  } catch (cause) {
    throw new ProviderUnavailable(`GET ${url} failed`, { cause })
  }
  if (!response.ok) throw new ProviderUnavailable(`GET ${url} answered ${response.status}`)
  const parsed = schema.safeParse(await response.json().catch(() => undefined))
  if (!parsed.success) throw new ProviderUnavailable(`GET ${url} answered an unexpected body`)
  return parsed.data
}

const GitHubUserSchema = z.object({
  id: z.union([z.number(), z.string()]).transform(String),
  login: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  avatar_url: z.string().nullish(),
})

const GitHubEmailsSchema = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
)

const GITHUB_JSON = 'application/vnd.github+json'

export async function githubProfile(apiUrl: string, accessToken: string): Promise<OAuthProfile> {
  const [user, emails] = await Promise.all([
    fetchProviderJson(`${apiUrl}/user`, accessToken, GitHubUserSchema, GITHUB_JSON),
    fetchProviderJson(`${apiUrl}/user/emails`, accessToken, GitHubEmailsSchema, GITHUB_JSON),
  ])
  // /user shows only a public address and never says whether it is verified; /user/emails does.
  const chosen =
    emails.find((e) => e.primary && e.verified) ??
    emails.find((e) => e.verified) ??
    emails.find((e) => e.primary)
  return {
    provider: 'github',
    providerAccountId: user.id,
    email: chosen?.email ?? user.email ?? null,
    emailVerified: chosen?.verified ?? false,
    name: user.name?.trim() || user.login,
    image: imageOrNull(user.avatar_url),
  }
}

const GoogleUserInfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().nullish(),
  // OpenID Connect says boolean; some Google endpoints have sent the string "true".
  email_verified: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
    .nullish(),
  name: z.string().nullish(),
  picture: z.string().nullish(),
})

export async function googleProfile(userInfoUrl: string, accessToken: string): Promise<OAuthProfile> {
  const info = await fetchProviderJson(userInfoUrl, accessToken, GoogleUserInfoSchema, 'application/json')
  return {
    provider: 'google',
    providerAccountId: info.sub,
    email: info.email ?? null,
    emailVerified: info.email_verified === true,
    name: info.name?.trim() ?? '',
    image: imageOrNull(info.picture),
  }
}

function imageOrNull(url: string | null | undefined) {
  return url && ImageUrlSchema.safeParse(url).success ? url : null
}

// ── The flow ────────────────────────────────────────────────────────────────

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
    const flow = new URLSearchParams({ provider, redirect: safeRedirect(redirectTo, DEFAULT_SIGNED_IN_PATH) })
    headers.append(
      'Set-Cookie',
      serializeCookie(FLOW_COOKIE, flow.toString(), { maxAgeSeconds: FLOW_MAX_AGE_SECONDS }),
    )
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

/** The Set-Cookie headers that end a flow, whatever its outcome: its cookies are single-use. */
/**
 * Every cookie of a finished sign-in: ours, and the strategies' state cookies — the OAuth2
 * strategy names one per attempt (`tw_oauth_google:<state>`), so all the request carries go.
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

function readFlow(request: Request) {
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

// The strategies' own messages when the callback does not match the cookie they set.
const STATE_FAILURES = new Set([
  'Missing state on cookie.',
  "State in URL doesn't match state in cookie.",
  'Missing code in the URL',
  'Missing code verifier on cookie.',
])

function toFlowError(thrown: unknown, provider: OAuthProvider, redirectTo: string) {
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

function providerErrorMessage(name: string, code: string, description: string | null) {
  if (code === 'access_denied') return `Sign-in with ${name} was cancelled. Nothing was changed.`
  // invalid_grant: the code was used already (a reload, the back button) or has expired.
  if (code === 'invalid_grant' || code === 'bad_verification_code') return OAUTH_EXPIRED_MESSAGE
  const detail = description ? `: ${description}` : ''
  return `${name} did not complete the sign-in (${code}${detail}). Please start again.`
}
