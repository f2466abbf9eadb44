import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { resetEnvForTests } from '~/env.server'
import { findSession, listSessions } from '~/services/sessions.server'
import { expireCookie } from '~/utils/cookies.server'
import { cookieAttributes } from '../../tests/helpers/auth'
import { createUser } from '../../tests/helpers/factories'
import { buildRequest } from '../../tests/helpers/route'
import { clientAddressContext, clientIp } from './client-ip.server'
import { clearSessionCookie, SESSION_COOKIE } from './session-cookie.server'
import { finishSignIn } from './sign-in.server'

/**
 * The session cookie is HttpOnly, SameSite=Lax and Secure in production, and lasts 30 days
 * (docs/product-rules.md §2); the client address behind rate limits and the sessions list is trusted only as far as
 * the deployment allows.
 */

const savedTrustProxy = process.env.TRUST_PROXY
afterEach(() => {
  if (savedTrustProxy === undefined) delete process.env.TRUST_PROXY
  else process.env.TRUST_PROXY = savedTrustProxy
  resetEnvForTests()
})

describe('clearSessionCookie', () => {
  test('expires the session cookie', () => {
    expect(clearSessionCookie()).toBe(expireCookie(SESSION_COOKIE))
  })
})

describe('finishSignIn', () => {
  test('sets a tw_session cookie for 30 days that opens the new session, recording device and address', async () => {
    const db = database()
    const user = await createUser(db)
    const context = new RouterContextProvider()
    context.set(clientAddressContext, '203.0.113.7')
    const request = buildRequest({
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
    })

    const signedIn = await finishSignIn({ request, context }, user.id, 'password')
    if (signedIn.isPending) throw new Error('no two-factor here')
    const { session, setCookies } = signedIn
    const cookie = setCookies[0] ?? ''

    const headers = new Headers({ 'Set-Cookie': cookie })
    expect(cookieAttributes(headers, SESSION_COOKIE)).toEqual({
      path: '/',
      'max-age': String(30 * 24 * 60 * 60),
      samesite: 'Lax',
      httponly: '',
    })
    const found = await findSession(db, session.token)
    expect(found).toMatchObject({ user: { id: user.id }, ip: '203.0.113.7' })
    const [listed] = await listSessions(db, user.id)
    expect(listed).toMatchObject({ method: 'password', isTwoFactor: false })
    expect(found?.userAgent).toContain('Firefox')
    expect(cookie).toContain(`${SESSION_COOKIE}=${session.token}`)
  })
})

describe('clientIp', () => {
  const forwarded = () =>
    buildRequest({
      headers: { 'X-Forwarded-For': '198.51.100.1, 10.0.0.1', 'Fly-Client-IP': '198.51.100.2' },
    })
  const context = () => {
    const c = new RouterContextProvider()
    c.set(clientAddressContext, '10.0.0.9')
    return c
  }

  test('is the TCP peer: forwarding headers are ignored unless a proxy is trusted', () => {
    expect(clientIp(forwarded(), context())).toBe('10.0.0.9')
    expect(clientIp(buildRequest(), new RouterContextProvider())).toBe('unknown')
  })

  test('behind a trusted proxy, Fly-Client-IP, else the first X-Forwarded-For', () => {
    process.env.TRUST_PROXY = 'true'
    resetEnvForTests()
    expect(clientIp(forwarded(), context())).toBe('198.51.100.2')
    expect(
      clientIp(buildRequest({ headers: { 'X-Forwarded-For': '198.51.100.1, 10.0.0.1' } }), context()),
    ).toBe('198.51.100.1')
    expect(clientIp(buildRequest(), context())).toBe('10.0.0.9')
  })
})
