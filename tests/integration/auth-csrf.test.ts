import type { RouteConfigEntry } from '@react-router/dev/routes'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { ANONYMOUS_COOKIE } from '~/auth/context.server'
import { CSRF_HEADER, isValidCsrfToken } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import routes from '~/routes'
import { loader as csrfLoader } from '~/routes/api/csrf'
import { anonymousBrowser, callThroughMiddleware, cookieAttributes, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { cookieHeaderFrom } from '../helpers/route'

/**
 * "No mutation passes without a CSRF token": every route in app/routes.ts that has an action is
 * POSTed through the root middleware without a token (anonymous and signed in) and from a foreign
 * Origin with one; each must answer 403 before its action runs. New routes are covered as they
 * are added, because the list comes from the route table itself.
 */

/**
 * Routes that check CSRF themselves (or need none); anything else here is a hole. Stripe's webhook
 * proves itself with its signature (tests/integration/payments.test.ts); /mcp takes only a personal API
 * token, never a cookie (tests/integration/mcp.test.ts).
 */
const CHECKED_ELSEWHERE = ['/api/rpc/*', '/mcp', '/resources/theme', '/api/stripe/webhook']

type RouteModule = { action?: (args: never) => unknown }
const modules = import.meta.glob<RouteModule>(['../../app/routes/**/*.{ts,tsx}', '!**/*.test.*'])

type MutatingRoute = { path: string; url: string; file: string }

function flatten(entries: RouteConfigEntry[], parent = ''): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ''].filter(Boolean).join('/')
    return [{ path: `/${path}`, file: entry.file }, ...flatten(entry.children ?? [], path)]
  })
}

/** What a splat stands for in the URLs built here. */
function splatFor(path: string) {
  return path === '/api/auth/*' ? 'sign-in/email' : 'no-such-page'
}

/** A concrete URL for a pattern: params and splats filled in. */
function urlFor(path: string) {
  return path.replace(/:[^/]+/g, 'github').replace(/\*$/, splatFor(path))
}

async function mutatingRoutes(): Promise<MutatingRoute[]> {
  const found: MutatingRoute[] = []
  for (const { path, file } of flatten(await routes)) {
    const load = modules[`../../app/${file}`]
    if (!load) throw new Error(`No module for ${file}`)
    if ((await load()).action) found.push({ path, url: urlFor(path), file })
  }
  return found
}

const all = await mutatingRoutes()
const checkedHere = all.filter((route) => !CHECKED_ELSEWHERE.includes(route.path))

async function actionOf(file: string) {
  const load = modules[`../../app/${file}`]
  const action = (await load?.())?.action
  if (!action) throw new Error(`${file} has no action`)
  return action
}

function paramsFor(path: string): Record<string, string> {
  const params: Record<string, string> = {}
  if (path.includes(':provider')) params.provider = 'github'
  if (path.endsWith('*')) params['*'] = splatFor(path)
  return params
}

describe('the route table', () => {
  test('has the account routes among its mutations', () => {
    const paths = all.map((route) => route.path)
    for (const path of ['/login', '/signup', '/logout', '/settings', '/api/auth/*', '/login/:provider']) {
      expect(paths).toContain(path)
    }
  })

  test('exempts only the RPC endpoint (it checks mutations itself), the token-only MCP endpoint, the theme switch and the signed Stripe webhook', () => {
    expect(
      all
        .map((route) => route.path)
        .filter((path) => CHECKED_ELSEWHERE.includes(path))
        .sort(),
    ).toEqual([...CHECKED_ELSEWHERE].sort())
  })
})

describe.each(checkedHere)('POST $url', ({ path, url, file }) => {
  test('without a token, from a visitor: 403 before the action runs', async () => {
    const answer = await callThroughMiddleware(await actionOf(file), {
      url,
      params: paramsFor(path),
      headers: { Cookie: anonymousBrowser().cookie },
      form: { intent: 'anything', email: 'someone@example.test', password: 'a long password' },
    })
    expect(answer.status).toBe(403)
    expect(answer.handled).toBe(false)
    expect(answer.body).toEqual(
      url.startsWith('/api/')
        ? { code: 'INVALID_CSRF_TOKEN', message: 'Invalid CSRF token' }
        : 'Invalid CSRF token',
    )
  })

  test('without a token, signed in: 403', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await callThroughMiddleware(await actionOf(file), {
      url,
      params: paramsFor(path),
      headers: { Cookie: browser.cookie },
      json: { intent: 'anything' },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
  })

  test('with a valid token but from a foreign Origin: 403', async () => {
    const browser = anonymousBrowser()
    const answer = await callThroughMiddleware(await actionOf(file), {
      url,
      params: paramsFor(path),
      headers: browser.headers({ extra: { Origin: 'https://evil.example' } }),
      form: browser.form({ intent: 'anything' }),
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
  })
})

describe('GET /api/csrf', () => {
  test('gives a new visitor a token valid for an hour, bound to the tw_anon cookie it sets', async () => {
    const before = Date.now()
    const answer = await callThroughMiddleware(csrfLoader, { url: '/api/csrf' }, 'GET')

    expect(answer.status).toBe(200)
    expect(answer.headers.get('Cache-Control')).toBe('no-store')
    const { csrfToken, expiresAt } = answer.body as { csrfToken: string; expiresAt: string }
    expect(new Date(expiresAt).getTime()).toBeGreaterThanOrEqual(before + 60 * 60 * 1000 - 1000)
    expect(new Date(expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 60 * 60 * 1000)
    expect(cookieAttributes(answer.headers, ANONYMOUS_COOKIE)).toMatchObject({
      httponly: '',
      samesite: 'Lax',
    })
    const cookie = cookieHeaderFrom(answer.headers)
    const anonymousId = decodeURIComponent(cookie.slice(`${ANONYMOUS_COOKIE}=`.length))
    expect(isValidCsrfToken(csrfToken, `anonymous:${anonymousId}`)).toBe(true)

    // The round trip an API client makes: that cookie and that token let a POST through.
    const logout = await actionOf('routes/auth/logout.ts')
    const post = await callThroughMiddleware(logout, {
      url: '/logout',
      headers: { Cookie: cookie, [CSRF_HEADER]: csrfToken },
    })
    expect(post).toMatchObject({ status: 302, handled: true })
  })

  test('a returning visitor keeps their cookie; a signed-in one gets a token bound to the session', async () => {
    const returning = anonymousBrowser()
    const again = await callThroughMiddleware(
      csrfLoader,
      { url: '/api/csrf', headers: { Cookie: returning.cookie } },
      'GET',
    )
    expect(again.headers.getSetCookie()).toEqual([])
    const anonymousId = returning.cookie.slice(`${ANONYMOUS_COOKIE}=`.length)
    expect(
      isValidCsrfToken((again.body as { csrfToken: string }).csrfToken, `anonymous:${anonymousId}`),
    ).toBe(true)

    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const signedIn = await callThroughMiddleware(
      csrfLoader,
      {
        url: '/api/csrf',
        headers: { Cookie: browser.cookie },
        context: new RouterContextProvider(),
      },
      'GET',
    )
    expect(
      isValidCsrfToken((signedIn.body as { csrfToken: string }).csrfToken, `session:${browser.session.id}`),
    ).toBe(true)
  })
})
