import { RouterContextProvider } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { middleware } from '~/root'
import { createSession } from '~/services/sessions.server'
import { anonymousBrowser, cookieAttributes, signedInBrowser } from '../../tests/helpers/auth'
import { createUser } from '../../tests/helpers/factories'
import { buildRequest, type RequestOptions, TEST_ORIGIN } from '../../tests/helpers/route'
import { ANONYMOUS_COOKIE } from './context.server'
import { CSRF_FIELD, CSRF_HEADER, issueCsrfToken } from './csrf.server'
import { authMiddleware } from './middleware.server'

/**
 * The root middleware, called as React Router calls it: a real Request, a fresh context, and a
 * `next` that stands for the route's loader or action. A refused request must never reach `next`.
 */

const DAY = 24 * 60 * 60 * 1000

type Refusal = { type: 'DataWithResponseInit'; data: unknown; init: { status: number } }

async function run(options: RequestOptions, answer: () => Response = () => new Response('handled')) {
  const request = buildRequest(options)
  const next = vi.fn(async () => answer())
  const args = {
    request,
    url: new URL(request.url),
    params: {},
    context: new RouterContextProvider(),
    pattern: '',
  }
  try {
    const [step] = middleware
    if (!step) throw new Error('The root route has no middleware')
    const response = (await step(args as never, next as never)) as Response
    return { response, thrown: undefined, next }
  } catch (thrown) {
    return { response: undefined, thrown, next }
  }
}

describe('the root route', () => {
  test('runs the auth middleware on every request', () => {
    expect(middleware).toContain(authMiddleware)
  })
})

describe('mutations without a valid CSRF token', () => {
  test('an HTML POST without a token is refused: 403 Invalid CSRF token, nothing runs', async () => {
    const browser = anonymousBrowser()
    const { thrown, next } = await run({
      url: '/login',
      method: 'POST',
      headers: { Cookie: browser.cookie },
      form: { email: 'a@example.test', password: 'whatever' },
    })
    expect(thrown).toMatchObject({
      type: 'DataWithResponseInit',
      data: 'Invalid CSRF token',
      init: { status: 403 },
    })
    expect(next).not.toHaveBeenCalled()
  })

  test('an /api/* POST is refused with JSON: { code: INVALID_CSRF_TOKEN, message }', async () => {
    const browser = anonymousBrowser()
    const { thrown, next } = await run({
      url: '/api/auth/sign-in/email',
      method: 'POST',
      headers: { Cookie: browser.cookie },
      json: { email: 'a@example.test', password: 'whatever' },
    })
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(403)
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/)
    expect(await response.json()).toEqual({ code: 'INVALID_CSRF_TOKEN', message: 'Invalid CSRF token' })
    expect(next).not.toHaveBeenCalled()
  })

  test.each(['PUT', 'PATCH', 'DELETE'])('%s is a mutation too', async (method) => {
    const { thrown, next } = await run({
      url: '/settings',
      method,
      headers: { Cookie: anonymousBrowser().cookie },
    })
    expect((thrown as Refusal).init.status).toBe(403)
    expect(next).not.toHaveBeenCalled()
  })

  test('a token without the cookie it is bound to is refused (a token copied to another browser)', async () => {
    const browser = anonymousBrowser()
    const { thrown } = await run({ url: '/login', method: 'POST', headers: { [CSRF_HEADER]: browser.csrf } })
    expect((thrown as Refusal).init.status).toBe(403)
  })

  test("another browser's token is refused", async () => {
    const mine = anonymousBrowser()
    const theirs = anonymousBrowser()
    const { thrown } = await run({
      url: '/login',
      method: 'POST',
      headers: { Cookie: mine.cookie, [CSRF_HEADER]: theirs.csrf },
    })
    expect((thrown as Refusal).init.status).toBe(403)
  })

  test('once signed in, tokens are bound to the session: a token for the anonymous id no longer works', async () => {
    const db = database()
    const user = await createUser(db)
    const { token } = await createSession(db, user.id)
    const anonymous = anonymousBrowser()
    const { thrown } = await run({
      url: '/settings',
      method: 'POST',
      headers: {
        Cookie: `${anonymous.cookie}; ${SESSION_COOKIE}=${token}`,
        [CSRF_HEADER]: anonymous.csrf,
      },
    })
    expect((thrown as Refusal).init.status).toBe(403)
  })

  test('a foreign Origin is refused even with a valid token', async () => {
    const browser = anonymousBrowser()
    const { thrown, next } = await run({
      url: '/login',
      method: 'POST',
      headers: { Cookie: browser.cookie, Origin: 'https://evil.example' },
      form: browser.form({ email: 'a@example.test' }),
    })
    expect((thrown as Refusal).init.status).toBe(403)
    expect(next).not.toHaveBeenCalled()

    const api = await run({
      url: '/api/auth/sign-out',
      method: 'POST',
      headers: browser.headers({ extra: { Origin: 'https://evil.example' } }),
    })
    expect((api.thrown as Response).status).toBe(403)
  })
})

describe('mutations with a valid token', () => {
  test('a form POST with the hidden field bound to the anonymous cookie passes', async () => {
    const browser = anonymousBrowser()
    const { response, thrown, next } = await run({
      url: '/login',
      method: 'POST',
      headers: { Cookie: browser.cookie, Origin: TEST_ORIGIN },
      form: browser.form({ email: 'a@example.test' }),
    })
    expect(thrown).toBeUndefined()
    expect(next).toHaveBeenCalledOnce()
    expect(await response?.text()).toBe('handled')
  })

  test('a JSON POST with the x-csrf-token header passes', async () => {
    const browser = anonymousBrowser()
    const { thrown, next } = await run({
      url: '/api/auth/sign-in/email',
      method: 'POST',
      headers: browser.headers(),
      json: { email: 'a@example.test' },
    })
    expect(thrown).toBeUndefined()
    expect(next).toHaveBeenCalledOnce()
  })

  test("a signed-in browser's token, bound to its session, passes", async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const { thrown, next } = await run({
      url: '/settings',
      method: 'POST',
      headers: { Cookie: browser.cookie, Origin: 'http://localhost:3000' },
      form: browser.form({ intent: 'revoke-other-sessions' }),
    })
    expect(thrown).toBeUndefined()
    expect(next).toHaveBeenCalledOnce()
  })

  test('the field name the forms use is the one read', () => {
    expect(CSRF_FIELD).toBe('csrf')
    expect(CSRF_HEADER).toBe('x-csrf-token')
  })
})

describe('requests that need no token', () => {
  test.each(['GET', 'HEAD', 'OPTIONS'])('%s passes without one', async (method) => {
    const { thrown, next } = await run({ url: '/settings', method })
    expect(thrown).toBeUndefined()
    expect(next).toHaveBeenCalledOnce()
  })

  test.each(['/api/rpc/healthCheck', '/api/rpc/tasks/create', '/resources/theme', '/api/stripe/webhook'])(
    'POST %s is left to its own check',
    async (url) => {
      const { thrown, next } = await run({ url, method: 'POST', json: {} })
      expect(thrown).toBeUndefined()
      expect(next).toHaveBeenCalledOnce()
    },
  )
})

describe('cookies the response must carry', () => {
  test('a session due for renewal sends its cookie again with a fresh 30-day Max-Age', async () => {
    const db = database()
    const user = await createUser(db)
    const { token } = await createSession(db, user.id, {}, new Date(Date.now() - 2 * DAY))

    const { response } = await run({ url: '/dashboard', headers: { Cookie: `${SESSION_COOKIE}=${token}` } })

    const attributes = cookieAttributes(response?.headers ?? new Headers(), SESSION_COOKIE)
    expect(attributes).toMatchObject({ 'max-age': String(30 * 24 * 60 * 60), path: '/', samesite: 'Lax' })
    expect(attributes).toHaveProperty('httponly')
    expect(response?.headers.getSetCookie()[0]).toContain(`${SESSION_COOKIE}=${token}`)
  })

  test('a fresh session sends no cookie', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const { response } = await run({ url: '/dashboard', headers: { Cookie: browser.cookie } })
    expect(response?.headers.getSetCookie()).toEqual([])
  })

  test('the renewal cookie is added even to a response whose headers are immutable (Response.redirect)', async () => {
    const db = database()
    const user = await createUser(db)
    const { token } = await createSession(db, user.id, {}, new Date(Date.now() - 2 * DAY))

    const { response, thrown } = await run(
      {
        url: '/api/auth/verify-email?token=x&callbackURL=%2Fdashboard',
        headers: { Cookie: `${SESSION_COOKIE}=${token}` },
      },
      () => Response.redirect(`${TEST_ORIGIN}/dashboard`, 302),
    )

    expect(thrown).toBeUndefined()
    expect(response?.status).toBe(302)
    expect(response?.headers.get('Location')).toBe(`${TEST_ORIGIN}/dashboard`)
    expect(cookieAttributes(response?.headers ?? new Headers(), SESSION_COOKIE)).toBeDefined()
  })

  test('an unknown or expired session cookie counts as signed out: a token must then be anonymous', async () => {
    const db = database()
    const user = await createUser(db)
    const { token, id } = await createSession(db, user.id, {}, new Date(Date.now() - 31 * DAY))
    const sessionToken = issueCsrfToken(`session:${id}`)
    const refused = await run({
      url: '/settings',
      method: 'POST',
      headers: { Cookie: `${SESSION_COOKIE}=${token}`, [CSRF_HEADER]: sessionToken },
    })
    expect((refused.thrown as Refusal).init.status).toBe(403)

    const browser = anonymousBrowser()
    const passed = await run({
      url: '/login',
      method: 'POST',
      headers: { Cookie: `${browser.cookie}; ${SESSION_COOKIE}=${token}`, [CSRF_HEADER]: browser.csrf },
    })
    expect(passed.thrown).toBeUndefined()
  })

  test('the anonymous cookie is named tw_anon', () => {
    expect(ANONYMOUS_COOKIE).toBe('tw_anon')
  })
})
