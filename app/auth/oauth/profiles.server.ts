import { ImageUrlSchema } from '~/services/account-schemas'
import type { OAuthProfile } from '~/services/accounts.server'
import { z } from '~/utils/zod'

/**
 * Who the person is at the provider, read from its API with the access token and checked against
 * what we expect, as the OAuthProfile the account service decides on.
 */

const USER_AGENT = 'Threadwork'
const PROVIDER_TIMEOUT_MS = 10_000

/** The provider answered, but not with what we need (a failed request, an unexpected body). */
export class ProviderUnavailable extends Error {
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
