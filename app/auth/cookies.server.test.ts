import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { resetEnvForTests } from '~/env.server'
import { cookieAttributes } from '../../tests/helpers/auth'
import { createUser } from '../../tests/helpers/factories'
import { buildRequest } from '../../tests/helpers/route'
import { clientAddressContext, clientIp } from './client-ip.server'
import { expireCookie, readCookie, serializeCookie } from './cookies.server'
import { clearSessionCookie, startSession } from './login.server'
import { findSession, SESSION_COOKIE } from './session.server'

/**
 * The session cookie's attributes are the spec's (HttpOnly, SameSite=Lax, Secure in production,
 * 30 days); the client address behind rate limits and the sessions list is trusted only as far as
 * the deployment allows.
 */

const saved = { ...process.env }
afterEach(() => {
  for (const name of ['NODE_ENV', 'BASE_URL', 'TRUST_PROXY'] as const) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  resetEnvForTests()
})

function headersWith(cookie: string) {
  return new Headers({ 'Set-Cookie': cookie })
}

describe('serializeCookie / readCookie', () => {
  test('HttpOnly, SameSite=Lax, Path=/ and the given Max-Age; not Secure over http', () => {
    const cookie = serializeCookie('tw_session', 'a b;c', { maxAgeSeconds: 60 })
    expect(cookie).toBe('tw_session=a%20b%3Bc; Path=/; Max-Age=60; SameSite=Lax; HttpOnly')
    expect(readCookie(`other=1; tw_session=${encodeURIComponent('a b;c')}`, 'tw_session')).toBe('a b;c')
  })

  test('Secure in production behind https', () => {
    process.env.NODE_ENV = 'production'
    process.env.BASE_URL = 'https://threadwork.example'
    resetEnvForTests()
    expect(
      cookieAttributes(headersWith(serializeCookie('x', '1', { maxAgeSeconds: 1 })), 'x'),
    ).toHaveProperty('secure')
  })

  test('not Secure in production on plain http (a local production build must still sign in)', () => {
    process.env.NODE_ENV = 'production'
    process.env.BASE_URL = 'http://127.0.0.1:3000'
    resetEnvForTests()
    expect(
      cookieAttributes(headersWith(serializeCookie('x', '1', { maxAgeSeconds: 1 })), 'x'),
    ).not.toHaveProperty('secure')
  })

  test('reads nothing from a missing header, an unknown name, or a badly encoded value', () => {
    expect(readCookie(null, 'a')).toBeUndefined()
    expect(readCookie('b=1', 'a')).toBeUndefined()
    expect(readCookie('a=%E0%A4%A', 'a')).toBeUndefined()
    // A name that merely ends like ours is another cookie.
    expect(readCookie('xa=1; a=2', 'a')).toBe('2')
  })

  test('an expired cookie is empty with Max-Age=0', () => {
    expect(expireCookie('tw_session')).toMatch(/^tw_session=; Path=\/; Max-Age=0; SameSite=Lax; HttpOnly/)
    expect(clearSessionCookie()).toBe(expireCookie(SESSION_COOKIE))
  })
})

describe('startSession', () => {
  test('sets a tw_session cookie for 30 days that opens the new session, recording device and address', async () => {
    const db = database()
    const user = await createUser(db)
    const context = new RouterContextProvider()
    context.set(clientAddressContext, '203.0.113.7')
    const request = buildRequest({
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
    })

    const { cookie, session } = await startSession(user.id, request, context)

    const headers = headersWith(cookie)
    expect(cookieAttributes(headers, SESSION_COOKIE)).toEqual({
      path: '/',
      'max-age': String(30 * 24 * 60 * 60),
      samesite: 'Lax',
      httponly: '',
    })
    const found = await findSession(db, session.token)
    expect(found).toMatchObject({ user: { id: user.id }, ip: '203.0.113.7' })
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
