import { afterEach, describe, expect, test, vi } from 'vitest'
import { resetEnvForTests } from '~/env.server'
import { cookieAttributes } from '../../tests/helpers/auth'
import { expireCookie, readCookie, serializeCookie } from './cookies.server'

/**
 * Every cookie we set follows one set of rules (Path=/, SameSite=Lax, Secure exactly when the
 * site is served over https in production), whichever code writes it.
 */

const saved = { ...process.env }
afterEach(() => {
  for (const name of ['NODE_ENV', 'BASE_URL'] as const) {
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
  })
})

describe('one rule for every cookie', () => {
  // The toast storage is built once per process, so each case imports the modules afresh.
  async function cookiesSet() {
    vi.resetModules()
    const { themeCookieHeader } = await import('~/theme.server')
    const { toastCookieHeader } = await import('~/toast.server')
    return {
      theme: cookieAttributes(headersWith(themeCookieHeader('dark')), 'theme'),
      toast: cookieAttributes(headersWith(await toastCookieHeader({ title: 'Saved' })), 'tw_toast'),
      session: cookieAttributes(
        headersWith(serializeCookie('tw_session', 't', { maxAgeSeconds: 1 })),
        'tw_session',
      ),
    }
  }

  test('over https in production the theme, toast and session cookies are all Secure', async () => {
    process.env.NODE_ENV = 'production'
    process.env.BASE_URL = 'https://threadwork.example'
    resetEnvForTests()
    for (const attributes of Object.values(await cookiesSet())) {
      expect(attributes).toHaveProperty('secure')
      expect(attributes).toMatchObject({ path: '/' })
      expect(attributes?.samesite?.toLowerCase()).toBe('lax')
    }
  })

  test('over http none of them is Secure', async () => {
    process.env.NODE_ENV = 'production'
    process.env.BASE_URL = 'http://127.0.0.1:3000'
    resetEnvForTests()
    for (const attributes of Object.values(await cookiesSet()))
      expect(attributes).not.toHaveProperty('secure')
  })
})
