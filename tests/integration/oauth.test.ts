import { generateTOTP } from '@epic-web/totp'
import { and, eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { ANONYMOUS_COOKIE } from '~/auth/context.server'
import { issueCsrfToken } from '~/auth/csrf.server'
import { authMiddleware } from '~/auth/middleware.server'
import { configuredProviders, oauthAuthorizeOrigins } from '~/auth/oauth/config.server'
import { OAUTH_EXPIRED_MESSAGE } from '~/auth/oauth/errors.server'
import type { OAuthProvider } from '~/auth/oauth-providers'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { TWO_FACTOR_COOKIE } from '~/auth/sign-in.server'
import { database } from '~/db/client.server'
import { accounts, users } from '~/db/schema'
import { env, resetEnvForTests } from '~/env.server'
import { loader as callbackLoader } from '~/routes/auth/login-callback'
import { action as startAction, loader as startLoader } from '~/routes/auth/login-provider'
import { contentSecurityPolicy } from '~/security.server'
import { ACCOUNT_DISABLED, createSession, findSession } from '~/services/sessions.server'
import { beginTwoFactor, confirmTwoFactor, TOTP } from '~/services/two-factor.server'
import {
  type OAuthTestIdentity,
  type OAuthTestProvider,
  startOAuthProvider,
} from '../fixtures/oauth-provider'
import { createUser } from '../helpers/factories'
import { expectOnSite, ODD_LOCAL_TARGETS, OFF_SITE_TARGETS } from '../helpers/redirect-attacks'
import { callLoader, cookieHeaderFrom, TEST_ORIGIN } from '../helpers/route'

/**
 * The whole authorization-code round trip over real HTTP against the local provider: the sign-in
 * button's POST (through the CSRF middleware), the browser's visit to /authorize, and the
 * callback with the cookies the start set — then the rows and the session a person would get.
 */

// The tests run with the default BASE_URL; the provider only accepts the redirect URI built on it.
const APP_BASE_URL = 'http://localhost:3000'

let provider: OAuthTestProvider

beforeAll(async () => {
  provider = await startOAuthProvider({ appBaseUrl: APP_BASE_URL })
})

beforeEach(() => {
  Object.assign(process.env, provider.appEnv)
  resetEnvForTests()
})

afterEach(() => {
  for (const name of Object.keys(provider.appEnv)) delete process.env[name]
  resetEnvForTests()
})

afterAll(async () => {
  await provider.close()
})

let sequence = 0
function identity(overrides: Partial<OAuthTestIdentity> = {}): OAuthTestIdentity {
  sequence += 1
  return {
    id: String(7_000 + sequence),
    login: `tester${sequence}`,
    name: `Tester ${sequence}`,
    email: `tester${sequence}@example.test`,
    ...overrides,
  }
}

/** A browser that has loaded /login: an anonymous cookie and a CSRF token bound to it. */
function anonymousBrowser() {
  const anonymousId = `anon-${sequence}-${Math.random().toString(36).slice(2)}`
  return { cookie: `${ANONYMOUS_COOKIE}=${anonymousId}`, csrf: issueCsrfToken(`anonymous:${anonymousId}`) }
}

/** POSTs a sign-in button's form through the root middleware (CSRF, Origin) to the start action. */
async function pressButton(name: OAuthProvider, form: Record<string, string>, cookie: string) {
  const request = new Request(`${TEST_ORIGIN}/login/${name}`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  })
  const args = {
    request,
    url: new URL(request.url),
    params: { provider: name },
    context: new RouterContextProvider(),
    pattern: '/login/:provider',
  }
  try {
    const response = await authMiddleware(args as never, () => startAction(args as never))
    if (!response) throw new Error('The middleware answered nothing')
    return response
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    // The middleware refuses with data(message, { status }).
    const refusal = thrown as { data: unknown; init: { status: number } }
    return new Response(String(refusal.data), { status: refusal.init.status })
  }
}

/** The browser at the provider: follows the redirect to /authorize and reads where it is sent back. */
async function approveAtProvider(authorizeUrl: string, who: OAuthTestIdentity, name: OAuthProvider) {
  const cookie = provider.identityCookie(name, who)
  const response = await fetch(authorizeUrl.replace(provider.browserOrigin, provider.origin), {
    redirect: 'manual',
    headers: { Cookie: `${cookie.name}=${cookie.value}` },
  })
  expect(response.status).toBe(302)
  const callback = response.headers.get('Location') ?? ''
  expect(callback.startsWith(`${APP_BASE_URL}/login/callback?`)).toBe(true)
  return callback
}

async function signedInUser(headers: Headers) {
  const token = headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))
    ?.split(';')[0]
    ?.slice(SESSION_COOKIE.length + 1)
  return token ? ((await findSession(database(), decodeURIComponent(token)))?.user ?? null) : null
}

async function linkOf(name: OAuthProvider, providerAccountId: string) {
  const [row] = await database()
    .select({ userId: accounts.userId, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(eq(accounts.provider, name), eq(accounts.providerAccountId, providerAccountId)))
  return row ?? null
}

describe('GitHub sign-in round trip', () => {
  test('a button press without a CSRF token is refused with 403 and goes nowhere', async () => {
    const browser = anonymousBrowser()
    const response = await pressButton('github', { redirect: '/dashboard' }, browser.cookie)
    expect(response.status).toBe(403)
    expect(await response.text()).toBe('Invalid CSRF token')
    expect(response.headers.get('Location')).toBeNull()
  })

  test('new person: signed in on the page they came from, with a verified user and a GitHub link', async () => {
    const browser = anonymousBrowser()
    const who = identity({ name: 'Margaret Hamilton', avatarUrl: 'https://avatars.example.test/mh' })
    const requestsBefore = provider.requests.length

    const start = await pressButton(
      'github',
      { csrf: browser.csrf, redirect: '/task?view=mine' },
      browser.cookie,
    )
    expect(start.status).toBe(302)
    const authorizeUrl = new URL(start.headers.get('Location') ?? '')
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(
      `${provider.browserOrigin}/github/authorize`,
    )
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${APP_BASE_URL}/login/callback`)
    expect(authorizeUrl.searchParams.get('scope')).toBe('read:user user:email')

    const callbackUrl = await approveAtProvider(authorizeUrl.toString(), who, 'github')
    const result = await callLoader(callbackLoader, {
      url: callbackUrl,
      headers: { Cookie: `${browser.cookie}; ${cookieHeaderFrom(start.headers)}` },
    })

    expect(result.status).toBe(302)
    expect(result.location).toBe('/task?view=mine')
    const user = await signedInUser(result.headers)
    expect(user).toMatchObject({
      email: who.email,
      name: 'Margaret Hamilton',
      image: 'https://avatars.example.test/mh',
      emailVerified: true,
    })
    expect(await linkOf('github', who.id)).toMatchObject({ userId: user?.id, email: who.email })
    // The flow's cookies are single-use.
    expect(result.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^tw_oauth=; .*Max-Age=0/)]),
    )
    // The app used the configured endpoints, User-Agent and all (the provider refuses otherwise).
    expect(provider.requests.slice(requestsBefore).map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /github/token', 'GET /github/user', 'GET /github/user/emails']),
    )
  })

  test('the same GitHub identity later opens the same account, linked once', async () => {
    const who = identity()
    const first = await roundTrip('github', who)
    const second = await roundTrip('github', { ...who, email: 'renamed-at-github@example.test' })

    const firstUser = await signedInUser(first.headers)
    expect(firstUser).not.toBeNull()
    expect((await signedInUser(second.headers))?.id).toBe(firstUser?.id)
    const links = await database().select().from(accounts).where(eq(accounts.providerAccountId, who.id))
    expect(links).toHaveLength(1)
  })

  test('a disabled account is refused: no session, and the page says why', async () => {
    const who = identity()
    const first = await roundTrip('github', who)
    const person = await signedInUser(first.headers)
    if (!person) throw new Error('The first sign-in made no account')
    await database().update(users).set({ disabledAt: new Date() }).where(eq(users.id, person.id))

    const refused = await roundTrip('github', who)

    expect(refused.status).toBe(403)
    expect(refused.data).toMatchObject({ message: ACCOUNT_DISABLED })
    expect(await signedInUser(refused.headers)).toBeNull()
  })

  test('a verified secondary address is used when the primary one is not verified', async () => {
    const who = identity({
      email: 'unverified-primary@example.test',
      emailVerified: false,
      otherEmails: [{ email: 'verified-secondary@example.test', verified: true }],
    })
    const result = await roundTrip('github', who)
    expect(await signedInUser(result.headers)).toMatchObject({
      email: 'verified-secondary@example.test',
      emailVerified: true,
    })
  })

  test('an existing account registered with an unverified address is not handed over', async () => {
    await createUser(database(), { email: 'squatted@example.test', emailVerifiedAt: null })
    const who = identity({ email: 'squatted@example.test' })

    const result = await roundTrip('github', who, '/settings')

    expect(result.status).toBe(409)
    expect(result.data).toMatchObject({
      message: expect.stringContaining('never verified'),
      providerName: 'GitHub',
      loginHref: '/login?redirect=%2Fsettings',
      // The same identity would be refused again: no retry buttons.
      providers: [],
    })
    expect(await signedInUser(result.headers)).toBeNull()
    expect(await linkOf('github', who.id)).toBeNull()
  })

  test('a state that does not match the cookie is refused with a message, not a session', async () => {
    const browser = anonymousBrowser()
    const who = identity()
    const start = await pressButton('github', { csrf: browser.csrf }, browser.cookie)
    const callbackUrl = new URL(await approveAtProvider(start.headers.get('Location') ?? '', who, 'github'))
    callbackUrl.searchParams.set('state', 'forged-state')

    const result = await callLoader(callbackLoader, {
      url: callbackUrl.toString(),
      headers: { Cookie: cookieHeaderFrom(start.headers) },
    })

    expect(result.status).toBe(400)
    expect(result.data).toMatchObject({ message: OAUTH_EXPIRED_MESSAGE, loginHref: '/login' })
    expect(await signedInUser(result.headers)).toBeNull()
    expect(await linkOf('github', who.id)).toBeNull()
  })

  test('a callback in a browser that never started the flow (no cookies) is refused', async () => {
    const browser = anonymousBrowser()
    const start = await pressButton('github', { csrf: browser.csrf }, browser.cookie)
    const callbackUrl = await approveAtProvider(start.headers.get('Location') ?? '', identity(), 'github')

    const result = await callLoader(callbackLoader, { url: callbackUrl })

    expect(result.status).toBe(400)
    expect(result.data).toMatchObject({ message: OAUTH_EXPIRED_MESSAGE })
    expect(await signedInUser(result.headers)).toBeNull()
  })

  test('a used code (reload, back button) is refused by the provider and explained', async () => {
    const browser = anonymousBrowser()
    const start = await pressButton('github', { csrf: browser.csrf }, browser.cookie)
    const callbackUrl = await approveAtProvider(start.headers.get('Location') ?? '', identity(), 'github')
    const cookie = cookieHeaderFrom(start.headers)

    const first = await callLoader(callbackLoader, { url: callbackUrl, headers: { Cookie: cookie } })
    const replay = await callLoader(callbackLoader, { url: callbackUrl, headers: { Cookie: cookie } })

    expect(first.status).toBe(302)
    expect(replay.status).toBe(400)
    expect(replay.data).toMatchObject({ message: OAUTH_EXPIRED_MESSAGE })
    expect(await signedInUser(replay.headers)).toBeNull()
  })

  test('cancelling at the provider (access_denied) shows a message with the way back', async () => {
    const who = identity({ deny: true })
    const result = await roundTrip('github', who, '/task')

    expect(result.status).toBe(400)
    expect(result.data).toEqual({
      message: 'Sign-in with GitHub was cancelled. Nothing was changed.',
      providerName: 'GitHub',
      loginHref: '/login?redirect=%2Ftask',
      // Trying again can help: the page offers the buttons, back to the same target.
      providers: ['github', 'google'],
      redirectTo: '/task',
      csrfToken: expect.any(String),
    })
    expect(await signedInUser(result.headers)).toBeNull()
  })

  test('a provider API that does not answer gives a 502 message page, not a server error', async () => {
    const browser = anonymousBrowser()
    const start = await pressButton('github', { csrf: browser.csrf }, browser.cookie)
    const callbackUrl = await approveAtProvider(start.headers.get('Location') ?? '', identity(), 'github')
    process.env.GITHUB_API_URL = `${provider.origin}/nowhere`
    resetEnvForTests()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})

    const result = await callLoader(callbackLoader, {
      url: callbackUrl,
      headers: { Cookie: cookieHeaderFrom(start.headers) },
    })

    expect(result.status).toBe(502)
    expect(result.data).toMatchObject({ message: expect.stringContaining('did not answer as expected') })
    // Operators see the cause; the person sees only the message.
    expect(logged).toHaveBeenCalledWith(
      'OAuth provider error',
      expect.objectContaining({ name: 'ProviderUnavailable' }),
    )
    logged.mockRestore()
  })

  test('an off-site redirect target is ignored: a new account lands on onboarding, a returning one on the dashboard', async () => {
    const who = identity()
    const first = await roundTrip('github', who, 'https://evil.example/phish')
    expect(first.status).toBe(302)
    expect(first.location).toBe('/onboarding')
    const again = await roundTrip('github', who, 'https://evil.example/phish')
    expect(again.location).toBe('/dashboard')
  })

  test.each([...OFF_SITE_TARGETS, ...ODD_LOCAL_TARGETS])(
    'a return address spelled as %s ends on this site',
    async (_label, target) => {
      const result = await roundTrip('github', identity(), target)
      expect(result.status).toBe(302)
      expectOnSite(result.location)
    },
  )

  test('a flow cookie written by hand is checked again at the callback', async () => {
    const browser = anonymousBrowser()
    const start = await pressButton('github', { csrf: browser.csrf, redirect: '/task' }, browser.cookie)
    const callbackUrl = await approveAtProvider(start.headers.get('Location') ?? '', identity(), 'github')
    const forged = new URLSearchParams({ provider: 'github', redirect: '/\t/evil.example' })
    const cookies = cookieHeaderFrom(start.headers).replace(/tw_oauth=[^;]*/, `tw_oauth=${forged}`)
    const result = await callLoader(callbackLoader, {
      url: callbackUrl,
      headers: { Cookie: `${browser.cookie}; ${cookies}` },
    })
    // A new account, on its way nowhere valid: the default landing, onboarding.
    expect(result).toMatchObject({ status: 302, location: '/onboarding' })
  })
})

describe('Google sign-in round trip', () => {
  test('started by GET, with PKCE the provider checks: signed in with a verified user and a Google link', async () => {
    const who = identity({ id: '112233445566', name: 'Grace Hopper', email: 'grace.hopper@example.test' })
    const start = await callLoader(startLoader, {
      url: '/login/google?redirect=%2Fchat',
      params: { provider: 'google' },
    })
    expect(start.status).toBe(302)
    const authorizeUrl = new URL(start.location ?? '')
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizeUrl.searchParams.get('scope')).toBe('openid email profile')

    const callbackUrl = await approveAtProvider(authorizeUrl.toString(), who, 'google')
    const result = await callLoader(callbackLoader, {
      url: callbackUrl,
      headers: { Cookie: cookieHeaderFrom(start.headers) },
    })

    expect(result.status).toBe(302)
    expect(result.location).toBe('/chat')
    const user = await signedInUser(result.headers)
    expect(user).toMatchObject({
      email: 'grace.hopper@example.test',
      name: 'Grace Hopper',
      emailVerified: true,
    })
    expect(await linkOf('google', '112233445566')).toMatchObject({ userId: user?.id })
  })

  test('an address Google has not verified creates an unverified account, never opens an existing one', async () => {
    const owner = await createUser(database(), { email: 'taken@example.test' })
    const conflict = await roundTrip(
      'google',
      identity({ email: 'taken@example.test', emailVerified: false }),
    )
    expect(conflict.status).toBe(409)
    expect(conflict.data).toMatchObject({ message: expect.stringContaining('Google has not verified') })
    expect(await database().select().from(accounts).where(eq(accounts.userId, owner.id))).toEqual([])

    const fresh = await roundTrip('google', identity({ email: 'fresh@example.test', emailVerified: false }))
    expect(fresh.status).toBe(302)
    expect(await signedInUser(fresh.headers)).toMatchObject({
      email: 'fresh@example.test',
      emailVerified: false,
    })
  })

  test('a wrong PKCE verifier is refused by the provider (the fixture really checks it)', async () => {
    const start = await callLoader(startLoader, { url: '/login/google', params: { provider: 'google' } })
    const callbackUrl = new URL(await approveAtProvider(start.location ?? '', identity(), 'google'))
    const response = await fetch(`${provider.origin}/google/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callbackUrl.searchParams.get('code') ?? '',
        redirect_uri: `${APP_BASE_URL}/login/callback`,
        client_id: provider.appEnv.GOOGLE_CLIENT_ID ?? '',
        client_secret: provider.appEnv.GOOGLE_CLIENT_SECRET ?? '',
        code_verifier: 'not-the-verifier-the-app-kept',
      }),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' })
  })
})

describe('configuration', () => {
  test('a provider without client id and secret is absent: no button, no CSP origin, its start goes back to /login', async () => {
    delete process.env.GOOGLE_CLIENT_ID
    resetEnvForTests()

    expect(configuredProviders()).toEqual(['github'])
    expect(oauthAuthorizeOrigins()).toEqual([provider.browserOrigin])
    const start = await callLoader(startLoader, {
      url: '/login/google?redirect=%2Fchat',
      params: { provider: 'google' },
    })
    expect(start.status).toBe(302)
    expect(start.location).toBe('/login?redirect=%2Fchat')
    expect(start.headers.getSetCookie().join('\n')).toMatch(/^tw_toast=/m)
  })

  test('with no provider configured there are no buttons and the CSP allows forms to post only to us', () => {
    for (const name of Object.keys(provider.appEnv)) delete process.env[name]
    resetEnvForTests()

    expect(configuredProviders()).toEqual([])
    expect(contentSecurityPolicy('nonce')).toMatch(/form-action 'self'$/)
    expect(env().GITHUB_AUTHORIZE_URL).toBe('https://github.com/login/oauth/authorize')
  })

  test("the CSP lets the sign-in forms be redirected to the configured providers' authorization servers", () => {
    expect(contentSecurityPolicy('nonce')).toContain(`form-action 'self' ${provider.browserOrigin}`)
  })

  test('an unknown provider in the URL is a 404', async () => {
    const result = await callLoader(startLoader, { url: '/login/myspace', params: { provider: 'myspace' } })
    expect(result).toMatchObject({ status: 404, thrown: true })
  })
})

/** Start (by the button), approve as `who`, come back: the callback's result. */
async function roundTrip(name: OAuthProvider, who: OAuthTestIdentity, redirect?: string) {
  const browser = anonymousBrowser()
  const start = await pressButton(
    name,
    { csrf: browser.csrf, ...(redirect ? { redirect } : {}) },
    browser.cookie,
  )
  expect(start.status).toBe(302)
  const callbackUrl = await approveAtProvider(start.headers.get('Location') ?? '', who, name)
  return callLoader(callbackLoader, {
    url: callbackUrl,
    headers: { Cookie: `${browser.cookie}; ${cookieHeaderFrom(start.headers)}` },
  })
}

describe('with two-factor on', () => {
  test.each(['github', 'google'] as const)(
    '%s signs in only as far as the code page: no session before the second factor',
    async (name) => {
      const who = identity()
      const user = await signedInUser((await roundTrip(name, who)).headers)
      if (!user) throw new Error('the first sign-in made no account')
      const db = database()
      const setup = await beginTwoFactor(db, user.id, {})
      const keep = await createSession(db, user.id)
      const { otp } = await generateTOTP({ ...TOTP, secret: setup.secret })
      await confirmTwoFactor(db, user.id, otp, keep.id)

      const again = await roundTrip(name, who, '/task')

      expect(again).toMatchObject({ status: 302, location: '/login/two-factor' })
      expect(await signedInUser(again.headers)).toBeNull()
      expect(again.headers.getSetCookie()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^${TWO_FACTOR_COOKIE}=[^;]+; .*Max-Age=600`)),
        ]),
      )
    },
  )
})
