import { createHmac } from 'node:crypto'
import { describe, expect, test, vi } from 'vitest'
import { env } from '~/env.server'
import { readFormData } from '~/utils/form-data.server'
import { buildRequest, TEST_ORIGIN } from '../../tests/helpers/route'
import {
  CSRF_FIELD,
  CSRF_HEADER,
  CSRF_TOKEN_TTL_MS,
  csrfTokenFromRequest,
  isAllowedOrigin,
  issueCsrfToken,
  isValidCsrfToken,
} from './csrf.server'

/**
 * CSRF tokens are stateless `<expiry>.<HMAC>` strings bound to one browser's session (or
 * anonymous id). Each way a token can be wrong is a way an attacker would try.
 */

const BINDING = 'session:abc123'
const NOW = Date.UTC(2030, 0, 1)

describe('issueCsrfToken / isValidCsrfToken', () => {
  test('a token verifies for its binding until it expires an hour later', () => {
    const token = issueCsrfToken(BINDING, NOW)
    expect(token).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]+$/)
    expect(isValidCsrfToken(token, BINDING, NOW)).toBe(true)
    expect(isValidCsrfToken(token, BINDING, NOW + CSRF_TOKEN_TTL_MS - 1)).toBe(true)
    expect(CSRF_TOKEN_TTL_MS).toBe(60 * 60 * 1000)
  })

  test('expired: refused from the hour on', () => {
    const token = issueCsrfToken(BINDING, NOW)
    expect(isValidCsrfToken(token, BINDING, NOW + CSRF_TOKEN_TTL_MS)).toBe(false)
    expect(isValidCsrfToken(token, BINDING, NOW + CSRF_TOKEN_TTL_MS + 1)).toBe(false)
    expect(isValidCsrfToken(token, BINDING, NOW + 24 * CSRF_TOKEN_TTL_MS)).toBe(false)
  })

  test("another browser's token is refused (wrong binding)", () => {
    const token = issueCsrfToken('anonymous:someone-else', NOW)
    expect(isValidCsrfToken(token, BINDING, NOW)).toBe(false)
    expect(isValidCsrfToken(issueCsrfToken('session:abc1234', NOW), BINDING, NOW)).toBe(false)
    // A session's token is not an anonymous token of the same id, nor the reverse.
    expect(isValidCsrfToken(issueCsrfToken('anonymous:abc123', NOW), BINDING, NOW)).toBe(false)
  })

  test('a tampered signature is refused', () => {
    const token = issueCsrfToken(BINDING, NOW)
    const [expiry = '', signature = ''] = token.split('.')
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
    expect(isValidCsrfToken(`${expiry}.${flipped}`, BINDING, NOW)).toBe(false)
    expect(isValidCsrfToken(`${expiry}.${signature.slice(0, -1)}`, BINDING, NOW)).toBe(false)
    expect(isValidCsrfToken(`${expiry}.${signature}A`, BINDING, NOW)).toBe(false)
    expect(isValidCsrfToken(`${expiry}.`, BINDING, NOW)).toBe(false)
  })

  test('a later expiry written onto a real signature is refused', () => {
    const token = issueCsrfToken(BINDING, NOW)
    const [, signature] = token.split('.')
    const extended = (NOW + CSRF_TOKEN_TTL_MS + 30 * 60 * 1000).toString(36)
    expect(isValidCsrfToken(`${extended}.${signature}`, BINDING, NOW + CSRF_TOKEN_TTL_MS)).toBe(false)
  })

  test('a far-future expiry is refused even when correctly signed (no token outlives an hour)', () => {
    // What a leaked secret or a bug in issuing would produce: signed, but valid for a year.
    const expiresAt = NOW + 365 * 24 * CSRF_TOKEN_TTL_MS
    const signature = createHmac('sha256', env().SESSION_SECRET)
      .update(`csrf:${BINDING}.${expiresAt}`)
      .digest('base64url')
    const forged = `${expiresAt.toString(36)}.${signature}`
    expect(isValidCsrfToken(forged, BINDING, expiresAt - 1000)).toBe(true)
    expect(isValidCsrfToken(forged, BINDING, NOW)).toBe(false)
  })

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['no dot', 'abcdef'],
    ['no expiry', '.abcdef'],
    ['non-numeric expiry', '!!!.abcdef'],
    ['three parts', 'a.b.c'],
  ])('a malformed token (%s) is refused', (_label, token) => {
    expect(isValidCsrfToken(token, BINDING, NOW)).toBe(false)
  })

  test('tokens are signed with the session secret: another secret refuses them', () => {
    const token = issueCsrfToken(BINDING, NOW)
    const [expiry] = token.split('.')
    const otherSecret = createHmac('sha256', 'x'.repeat(64))
      .update(`csrf:${BINDING}.${Number.parseInt(expiry ?? '', 36)}`)
      .digest('base64url')
    expect(isValidCsrfToken(`${expiry}.${otherSecret}`, BINDING, NOW)).toBe(false)
  })
})

describe('csrfTokenFromRequest', () => {
  test('reads the x-csrf-token header first', async () => {
    const request = buildRequest({
      method: 'POST',
      headers: { [CSRF_HEADER]: 'from-header' },
      form: { [CSRF_FIELD]: 'from-form' },
    })
    expect(await csrfTokenFromRequest(request)).toBe('from-header')
  })

  test('reads the hidden field of a URL-encoded form once: the action gets the same parse', async () => {
    const request = buildRequest({ method: 'POST', form: { [CSRF_FIELD]: 'from-form', email: 'a@b.c' } })
    const parse = vi.spyOn(request, 'formData')
    const clone = vi.spyOn(request, 'clone')
    expect(await csrfTokenFromRequest(request)).toBe('from-form')
    expect((await readFormData(request)).get('email')).toBe('a@b.c')
    // One read of the body, no copy of it.
    expect(parse).toHaveBeenCalledTimes(1)
    expect(clone).not.toHaveBeenCalled()
  })

  test('reads the hidden field of a multipart form', async () => {
    const form = new FormData()
    form.set(CSRF_FIELD, 'from-multipart')
    form.set('file', new Blob(['hello']), 'hello.txt')
    const request = buildRequest({ method: 'POST', form })
    const parse = vi.spyOn(request, 'formData')
    expect(await csrfTokenFromRequest(request)).toBe('from-multipart')
    expect((await readFormData(request)).get('file')).toBeInstanceOf(File)
    expect(parse).toHaveBeenCalledTimes(1)
  })

  test('finds nothing in a JSON body (API clients use the header) or a form without the field', async () => {
    expect(await csrfTokenFromRequest(buildRequest({ method: 'POST', json: { csrf: 'in-json' } }))).toBeNull()
    expect(await csrfTokenFromRequest(buildRequest({ method: 'POST', form: { email: 'a@b.c' } }))).toBeNull()
    expect(await csrfTokenFromRequest(buildRequest({ method: 'POST' }))).toBeNull()
  })

  test('a form body that cannot be parsed carries no token (no crash)', async () => {
    const request = buildRequest({
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=nothing' },
      body: 'not multipart at all',
    })
    expect(await csrfTokenFromRequest(request)).toBeNull()
  })
})

describe('isAllowedOrigin', () => {
  const url = new URL('/login', TEST_ORIGIN)
  const withOrigin = (origin?: string) =>
    buildRequest({ url: '/login', method: 'POST', headers: origin === undefined ? {} : { Origin: origin } })

  test('the same origin, and the configured BASE_URL, are allowed', () => {
    expect(isAllowedOrigin(withOrigin(TEST_ORIGIN), url)).toBe(true)
    expect(isAllowedOrigin(withOrigin(new URL(env().BASE_URL).origin), url)).toBe(true)
  })

  test('a request without Origin (old browsers, curl) falls to the token check', () => {
    expect(isAllowedOrigin(withOrigin(), url)).toBe(true)
  })

  test.each([
    'https://evil.example',
    'http://localhost:4000',
    'https://localhost',
    'http://localhost.evil.example',
    'null',
  ])('a foreign or opaque Origin (%s) is refused', (origin) => {
    expect(isAllowedOrigin(withOrigin(origin), url)).toBe(false)
  })
})
