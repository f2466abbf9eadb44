import { describe, expect, test } from 'vitest'
import { ANONYMOUS_COOKIE } from '~/auth/context.server'
import { isValidCsrfToken } from '~/auth/csrf.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { findSession } from '~/services/sessions.server'
import { readFormData } from '~/utils/form-data.server'
import {
  anonymousBrowser,
  callThroughMiddleware,
  clientContext,
  cookieAttributes,
  sessionCookieOf,
  signedInBrowser,
} from '../../../tests/helpers/auth'
import { createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { buildRequest, callAction, callLoader } from '../../../tests/helpers/route'
import { action, headers, loader } from './login'

/**
 * /login through real Requests: where it sends people, what a wrong or malformed form answers,
 * when it stops answering at all, and the cookie a successful sign-in sets.
 */

type Reply = {
  result?: {
    status?: string
    error?: Record<string, string[] | null>
    initialValue?: Record<string, unknown>
  }
}
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

describe('loader', () => {
  test('gives a visitor a CSRF token bound to a new anonymous cookie', async () => {
    const page = await callThroughMiddleware(loader, { url: '/login' }, 'GET')
    expect(page.status).toBe(200)
    const { csrfToken, redirect } = page.body as { csrfToken: string; redirect: string }
    expect(redirect).toBe('')
    const anonymousId = /tw_anon=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))?.[1] ?? ''
    expect(cookieAttributes(page.headers, ANONYMOUS_COOKIE)).toHaveProperty('httponly')
    expect(isValidCsrfToken(csrfToken, `anonymous:${decodeURIComponent(anonymousId)}`)).toBe(true)
  })

  test('keeps a local redirect target for the form', async () => {
    const page = await callLoader(loader, { url: '/login?redirect=%2Fsettings%3Ftab%3D1' })
    expect(page.data).toMatchObject({ redirect: '/settings?tab=1' })
  })

  test.each(['//evil.com', 'https://evil.com/dashboard', '/\\evil.com', 'javascript:alert(1)', 'dashboard'])(
    'ignores a target that is not a local path: %s',
    async (target) => {
      const page = await callLoader(loader, { url: `/login?redirect=${encodeURIComponent(target)}` })
      expect(page.data).toMatchObject({ redirect: '' })
    },
  )

  test('sends a signed-in user straight to the target, or /dashboard', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const toTarget = await callLoader(loader, {
      url: '/login?redirect=%2Fsettings',
      headers: { Cookie: browser.cookie },
    })
    expect(toTarget).toMatchObject({ status: 302, location: '/settings' })
    const toDashboard = await callLoader(loader, { url: '/login', headers: { Cookie: browser.cookie } })
    expect(toDashboard).toMatchObject({ status: 302, location: '/dashboard' })
    const notAway = await callLoader(loader, {
      url: '/login?redirect=%2F%2Fevil.com',
      headers: { Cookie: browser.cookie },
    })
    expect(notAway).toMatchObject({ status: 302, location: '/dashboard' })
  })
})

describe('action', () => {
  test('bad input answers 400 with the field errors, and never echoes the password', async () => {
    const answer = await callAction(action, {
      url: '/login',
      form: { email: 'not an address', password: '' },
      context: clientContext(),
    })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data, 'email')).toEqual(['Enter a valid e-mail address'])
    expect(errorsOf(answer.data, 'password')).toEqual(['Password is required'])

    const withPassword = await callAction(action, {
      url: '/login',
      form: { email: '', password: 'my secret' },
      context: clientContext(),
    })
    expect(withPassword.status).toBe(400)
    expect(errorsOf(withPassword.data, 'email')).toEqual(['E-mail is required'])
    expect(JSON.stringify(withPassword.data)).not.toContain('my secret')
  })

  test('a wrong password answers 401 with the form error, keeping the address but not the password', async () => {
    const user = await createUser(database())
    const answer = await callAction(action, {
      url: '/login',
      form: { email: user.email, password: 'not it' },
      context: clientContext(),
    })
    expect(answer.status).toBe(401)
    expect(errorsOf(answer.data)).toEqual(['Invalid e-mail or password.'])
    expect((answer.data as Reply).result?.initialValue).toMatchObject({ email: user.email })
    expect(JSON.stringify(answer.data)).not.toContain('not it')
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
  })

  test('after ten failures for an address, the 11th answers 429 with Retry-After and a message', async () => {
    const user = await createUser(database())
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await callAction(action, {
        url: '/login',
        form: { email: user.email, password: 'guess' },
        context: clientContext(),
      })
      expect(answer.status).toBe(401)
    }
    const limited = await callAction(action, {
      url: '/login',
      form: { email: user.email, password: TEST_PASSWORD },
      context: clientContext(),
    })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(14 * 60)
    expect(Number(limited.headers.get('Retry-After'))).toBeLessThanOrEqual(15 * 60)
    expect(errorsOf(limited.data)).toEqual(['Too many sign-in attempts for this e-mail. Try again later.'])
  })

  test('success: 302 to the redirect target with a 30-day HttpOnly, SameSite=Lax session cookie', async () => {
    const db = database()
    const user = await createUser(db)
    const answer = await callAction(action, {
      url: '/login',
      // The address in another case signs in all the same.
      form: { email: user.email.toUpperCase(), password: TEST_PASSWORD, redirect: '/settings' },
      headers: { 'User-Agent': 'Mozilla/5.0 (Macintosh) Safari/605.1.15' },
      context: clientContext('203.0.113.50'),
    })

    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/settings')
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toEqual({
      path: '/',
      'max-age': String(30 * 24 * 60 * 60),
      samesite: 'Lax',
      httponly: '',
    })
    const session = await findSession(db, sessionCookieOf(answer.headers) ?? '')
    expect(session).toMatchObject({ user: { id: user.id }, ip: '203.0.113.50' })
    expect(session?.userAgent).toContain('Safari')
  })

  test('without a target, or with a foreign one, success lands on /dashboard', async () => {
    const user = await createUser(database())
    for (const redirect of [undefined, '//evil.com', 'https://evil.com']) {
      const answer = await callAction(action, {
        url: '/login',
        form: { email: user.email, password: TEST_PASSWORD, ...(redirect ? { redirect } : {}) },
        context: clientContext(),
      })
      expect(answer).toMatchObject({ status: 302, location: '/dashboard' })
    }
  })

  test('signs in with the form as the sign-in schema reads it: the address trimmed and lower-cased', async () => {
    const db = database()
    const user = await createUser(db, { email: 'strategy@example.test' })
    const answer = await callAction(action, {
      url: '/login',
      form: { email: ' STRATEGY@example.test ', password: TEST_PASSWORD, redirect: '/task' },
      context: clientContext(),
    })
    expect(answer).toMatchObject({ status: 302, location: '/task' })
    expect(await findSession(db, sessionCookieOf(answer.headers) ?? '')).toMatchObject({
      user: { id: user.id, email: 'strategy@example.test' },
    })
  })

  test('reads the form the CSRF check already parsed, never the body a second time', async () => {
    await createUser(database(), { email: 'once@example.test' })
    const request = buildRequest(
      { url: '/login', form: { email: 'once@example.test', password: TEST_PASSWORD } },
      'POST',
    )
    const form = await readFormData(request)
    expect(request.bodyUsed).toBe(true)

    // A second parse of the used body would fail.
    const url = new URL(request.url)
    const answer = await action({
      request,
      url,
      context: clientContext(),
      params: {},
      pattern: '/login',
    } as never)

    expect(answer).toMatchObject({ status: 302 })
    expect(await readFormData(request)).toBe(form)
  })

  test('a body that is not a form is the client’s mistake (415), not a refusal', async () => {
    const answer = await callAction(action, {
      url: '/login',
      json: { email: 'x@example.test' },
      context: clientContext(),
    })
    expect(answer).toMatchObject({ status: 415, thrown: true })
  })

  test('through the root middleware: refused without a token, signed in with the page’s token', async () => {
    const user = await createUser(database())
    const browser = anonymousBrowser()
    const fields = { email: user.email, password: TEST_PASSWORD }

    const refused = await callThroughMiddleware(action, {
      url: '/login',
      headers: { Cookie: browser.cookie },
      form: fields,
    })
    expect(refused).toMatchObject({ status: 403, body: 'Invalid CSRF token', handled: false })

    const signedIn = await callThroughMiddleware(action, {
      url: '/login',
      headers: { Cookie: browser.cookie },
      form: browser.form(fields),
    })
    expect(signedIn).toMatchObject({ status: 302, location: '/dashboard', handled: true })
    expect(sessionCookieOf(signedIn.headers)).toBeTruthy()
  })
})

describe('headers', () => {
  test('a refusal’s Retry-After reaches the page (React Router passes on only cookies by default)', () => {
    const answer = new Headers(
      headers({
        actionHeaders: new Headers({ 'Retry-After': '600', 'Set-Cookie': 'a=1' }),
        parentHeaders: new Headers({ Vary: 'Cookie' }),
        loaderHeaders: new Headers(),
        errorHeaders: undefined,
      } as never),
    )
    expect(answer.get('Retry-After')).toBe('600')
    expect(answer.get('Vary')).toBe('Cookie')
    expect(
      new Headers(headers({ actionHeaders: new Headers(), parentHeaders: new Headers() } as never)).has(
        'Retry-After',
      ),
    ).toBe(false)
  })
})
