import { clientFrom, signUpThroughApi } from './api-client'
import { expect, test } from './fixtures'
import { uniqueAddress } from './unique'

/**
 * The protections against the real server, as an attacker's page or script would meet them: no
 * mutation without a CSRF token (or from a foreign Origin), and brute force on sign-in answered
 * with 429. These are HTTP-level and the same with JavaScript on or off, so they run once.
 */

// Sign-ups and sign-ins run real scrypt on a server shared with the other workers' tests.
test.describe.configure({ timeout: 120_000 })

test.beforeEach(({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'HTTP-level checks: one project is enough')
})

const PASSWORD = 'a long enough password'

/** Every route that changes something, with a body its action would accept. */
const FORM_POSTS: [string, Record<string, string>][] = [
  ['/login', { email: 'someone@example.test', password: PASSWORD }],
  ['/signup', { name: 'Someone', email: 'someone@example.test', password: PASSWORD }],
  ['/logout', {}],
  ['/settings', { intent: 'revoke-all-sessions' }],
  ['/support', { name: 'Someone', email: 'someone@example.test', message: 'Hello there, a message.' }],
  ['/email/forgot-password', { email: 'someone@example.test' }],
  ['/email/reset-password', { token: 'x', password: PASSWORD, confirmPassword: PASSWORD }],
  ['/email/verify-email', { token: 'x' }],
  ['/email/request-verification', {}],
  ['/login/github', {}],
]
const JSON_POSTS: [string, unknown][] = [
  ['/api/auth/sign-in/email', { email: 'someone@example.test', password: PASSWORD }],
  ['/api/auth/sign-up/email', { name: 'Someone', email: 'someone@example.test', password: PASSWORD }],
  ['/api/auth/sign-out', {}],
  ['/api/auth/update-user', { name: 'Changed' }],
  ['/api/auth/delete-user', { password: PASSWORD }],
  ['/api/auth/revoke-sessions', {}],
  ['/api/auth/revoke-other-sessions', {}],
  ['/api/auth/request-password-reset', { email: 'someone@example.test' }],
  ['/api/auth/reset-password', { newPassword: PASSWORD, token: 'x' }],
  ['/api/auth/send-verification-email', {}],
]

test('every form POST without a CSRF token answers 403 Invalid CSRF token', async ({ request }) => {
  // A visitor who has a tw_anon cookie (from any form page) but no token for this request.
  await request.get('/api/csrf')
  for (const [path, form] of FORM_POSTS) {
    const response = await request.post(path, { form, maxRedirects: 0 })
    expect(response.status(), path).toBe(403)
    expect(await response.text(), path).toContain('Invalid CSRF token')
  }
})

test('every /api/auth POST without a CSRF token answers 403 with the JSON error', async ({ request }) => {
  await request.get('/api/csrf')
  for (const [path, data] of JSON_POSTS) {
    const response = await request.post(path, { data, maxRedirects: 0 })
    expect(response.status(), path).toBe(403)
    expect(await response.json(), path).toEqual({ code: 'INVALID_CSRF_TOKEN', message: 'Invalid CSRF token' })
  }
})

test('signed in, a POST without the token changes nothing; the same POST with it works', async ({
  baseURL,
}, testInfo) => {
  const email = uniqueAddress('csrf', testInfo.project.name)
  const laptop = await signUpThroughApi(baseURL ?? '', { name: 'Cee', email, password: PASSWORD })

  const forged = await laptop.post('/api/auth/revoke-sessions', { json: {} })
  expect(forged.status).toBe(403)
  const stillIn = await laptop.get('/api/auth/get-session')
  expect(JSON.parse(stillIn.body)).toMatchObject({ user: { email } })

  const forgedForm = await laptop.post('/settings', { form: { intent: 'update-profile', name: 'Hacked' } })
  expect(forgedForm.status).toBe(403)
  expect(JSON.parse((await laptop.get('/api/auth/get-session')).body)).toMatchObject({
    user: { name: 'Cee' },
  })

  // A token from another browser is no better than none.
  const stranger = clientFrom(baseURL ?? '')
  const strangersToken = await stranger.csrf()
  expect(
    (await laptop.post('/api/auth/sign-out', { json: {} }, { 'x-csrf-token': strangersToken })).status,
  ).toBe(403)

  // With this browser's own token (bound to its session) the same POST goes through.
  const token = await laptop.csrf()
  const renamed = await laptop.post(
    '/api/auth/update-user',
    { json: { name: 'Cee Two' } },
    { 'x-csrf-token': token },
  )
  expect(renamed.status).toBe(200)
  const signedOut = await laptop.post('/api/auth/sign-out', { json: {} }, { 'x-csrf-token': token })
  expect(signedOut.status).toBe(200)
  expect(JSON.parse((await laptop.get('/api/auth/get-session')).body)).toBeNull()
})

test('a foreign Origin is refused even with a valid token', async ({ baseURL }, testInfo) => {
  const email = uniqueAddress('origin', testInfo.project.name)
  await signUpThroughApi(baseURL ?? '', { name: 'Ori', email, password: PASSWORD })
  const client = clientFrom(baseURL ?? '')
  const token = await client.csrf()
  const evil = { Origin: 'https://evil.example' }

  // Pages: React Router itself refuses a cross-origin form post (400) before our middleware's 403.
  const page = await client.post('/login', { form: { csrf: token, email, password: PASSWORD } }, evil)
  expect([400, 403]).toContain(page.status)
  // The JSON API is ours alone to guard.
  const api = await client.post(
    '/api/auth/sign-in/email',
    { json: { email, password: PASSWORD } },
    { ...evil, 'x-csrf-token': token },
  )
  expect(api.status).toBe(403)
  expect(JSON.parse(api.body)).toEqual({ code: 'INVALID_CSRF_TOKEN', message: 'Invalid CSRF token' })
  expect(client.cookies.has('tw_session')).toBe(false)

  // The same requests from the app's own origin go through.
  const own = { Origin: new URL(baseURL ?? '').origin }
  const signedIn = await client.post(
    '/api/auth/sign-in/email',
    { json: { email, password: PASSWORD } },
    { ...own, 'x-csrf-token': token },
  )
  expect(signedIn.status).toBe(200)
  expect(client.cookies.has('tw_session')).toBe(true)
})

test('brute force on sign-in: the 11th wrong password for one e-mail answers 429 with Retry-After', async ({
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000)
  const email = uniqueAddress('brute', testInfo.project.name)
  await signUpThroughApi(baseURL ?? '', { name: 'Victim', email, password: PASSWORD })

  // The attacker is one client with a valid token, as a script that loaded /login would be.
  const attacker = clientFrom(baseURL ?? '')
  const token = await attacker.csrf()
  const attempt = (password: string) =>
    attacker.post('/login', { form: { csrf: token, email, password } }, { Accept: 'text/html' })

  for (let n = 1; n <= 10; n++) {
    const response = await attempt(`guess number ${n}`)
    expect(response.status, `attempt ${n}`).toBe(401)
    expect(response.body).toContain('Invalid e-mail or password.')
  }
  const limited = await attempt('guess number 11')
  expect(limited.status).toBe(429)
  const retryAfter = Number(limited.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(14 * 60)
  expect(retryAfter).toBeLessThanOrEqual(15 * 60)
  expect(limited.body).toContain('Too many sign-in attempts for this e-mail. Try again later.')

  // Locked means locked: the right password waits too, and /api/auth agrees.
  expect((await attempt(PASSWORD)).status).toBe(429)
  const api = await attacker.post(
    '/api/auth/sign-in/email',
    { json: { email, password: PASSWORD } },
    { 'x-csrf-token': token },
  )
  expect(api.status).toBe(429)
  expect(api.headers['retry-after']).toBeTruthy()
  expect(JSON.parse(api.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
})
