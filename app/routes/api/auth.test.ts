import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { emailOutbox, users, verifications, workspaceMembers } from '~/db/schema'
import { INVALID_RESET_LINK, INVALID_VERIFICATION_LINK } from '~/services/accounts.server'
import { findSession, setActiveWorkspace } from '~/services/sessions.server'
import { hashToken, verifyPassword } from '~/utils/crypto.server'
import {
  anonymousBrowser,
  callThroughMiddleware,
  clientContext,
  cookieAttributes,
  sessionCookieOf,
  signedInBrowser,
} from '../../../tests/helpers/auth'
import { getAuthApi as get, postAuthApi as post } from '../../../tests/helpers/better-auth'
import { createTeamWorkspace, createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { callAction, callLoader } from '../../../tests/helpers/route'
import { action, loader } from './auth'

/**
 * /api/auth speaks the better-auth client's paths and JSON shapes. Each endpoint is called the way
 * that client calls it (JSON bodies, the session cookie) and its status and body are pinned down.
 */

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const db = database()
  const user = await createUser(db, overrides)
  const browser = await signedInBrowser(db, user.id, { userAgent: 'better-auth client', ip: '203.0.113.3' })
  return { db, user, browser, headers: { Cookie: browser.cookie } }
}

/** A verification or reset link's token, as the e-mail would carry it. */
async function linkToken(userId: string, email: string, purpose: 'verify-email' | 'reset-password') {
  const token = randomBytes(32).toString('base64url')
  await database()
    .insert(verifications)
    .values({
      userId,
      email,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    })
  return token
}

function expectUserJson(body: unknown, user: { id: string; email: string; name: string }) {
  expect(body).toEqual({
    id: user.id,
    email: user.email,
    name: user.name,
    image: null,
    emailVerified: expect.any(Boolean),
    createdAt: ISO,
    updatedAt: ISO,
    // better-auth's two-factor plugin adds it; off until the person turns it on.
    twoFactorEnabled: false,
  })
}

describe('routing', () => {
  test('an unknown path answers 404 JSON', async () => {
    const answer = await get('no-such-endpoint')
    expect(answer.status).toBe(404)
    expect(answer.data).toEqual({ code: 'NOT_FOUND', message: 'Not found' })
    expect((await post('nope', {})).status).toBe(404)
  })

  test('the wrong method answers 405 naming the right one', async () => {
    const getSignOut = await get('sign-out')
    expect(getSignOut.status).toBe(405)
    expect(getSignOut.data).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: 'Use POST for /api/auth/sign-out',
    })
    const postSession = await post('get-session', {})
    expect(postSession.status).toBe(405)
    expect(postSession.data).toMatchObject({ message: 'Use GET for /api/auth/get-session' })
  })

  test.each(['PUT', 'PATCH', 'DELETE'])(
    '%s runs no endpoint: 405 with Allow, and the session lives on',
    async (method) => {
      const { db, browser } = await signedIn()
      for (const path of ['sign-out', 'revoke-sessions']) {
        const answer = await callAction(action, {
          url: `/api/auth/${path}`,
          method,
          json: {},
          headers: browser.headers(),
          params: { '*': path },
          context: clientContext(),
        })
        expect(answer.status).toBe(405)
        expect(answer.data).toEqual({ code: 'METHOD_NOT_ALLOWED', message: `Use POST for /api/auth/${path}` })
        expect(answer.headers.get('Allow')).toBe('POST')
      }
      expect(await findSession(db, browser.session.token)).not.toBeNull()
    },
  )

  test('HEAD is answered like GET', async () => {
    const { headers } = await signedIn()
    expect(
      (
        await callLoader(loader, {
          url: '/api/auth/get-session',
          method: 'HEAD',
          headers,
          params: { '*': 'get-session' },
        })
      ).status,
    ).toBe(200)
  })

  test('a body that is not JSON answers 400', async () => {
    const answer = await callAction(action, {
      url: '/api/auth/sign-in/email',
      params: { '*': 'sign-in/email' },
      body: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
      context: clientContext(),
    })
    expect(answer.status).toBe(400)
    expect(answer.data).toEqual({ code: 'BAD_REQUEST', message: 'The request body must be JSON.' })
  })

  test('answers are never cached', async () => {
    expect((await get('get-session')).headers.get('Cache-Control')).toBe('no-store')
  })

  test('a POST without the CSRF token is refused by the middleware with JSON 403', async () => {
    const user = await createUser(database())
    const answer = await callThroughMiddleware(action, {
      url: '/api/auth/sign-in/email',
      params: { '*': 'sign-in/email' },
      headers: { Cookie: anonymousBrowser().cookie },
      json: { email: user.email, password: TEST_PASSWORD },
    })
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 'INVALID_CSRF_TOKEN', message: 'Invalid CSRF token' },
      handled: false,
    })
  })
})

describe('GET get-session', () => {
  test('is null for a visitor', async () => {
    const answer = await get('get-session')
    expect(answer.status).toBe(200)
    expect(answer.data).toBeNull()
  })

  test('is { session, user } for a signed-in browser; the cookie’s secret never appears', async () => {
    const { user, browser, headers } = await signedIn()
    const answer = await get('get-session', { headers })

    expect(answer.status).toBe(200)
    const body = answer.data as { session: unknown; user: unknown }
    expect(body.session).toEqual({
      id: browser.session.id,
      token: browser.session.id,
      userId: user.id,
      expiresAt: ISO,
      createdAt: ISO,
      updatedAt: ISO,
      ipAddress: '203.0.113.3',
      userAgent: 'better-auth client',
      // Until the session picks one, it works in the person's personal workspace.
      activeOrganizationId: user.id,
    })
    expectUserJson(body.user, user)
    expect(JSON.stringify(body)).not.toContain(browser.session.token)
  })

  test('activeOrganizationId is the workspace the session works in, while the person is in it', async () => {
    const { db, user, browser, headers } = await signedIn()
    const other = await signedInBrowser(db, user.id)
    const team = await createTeamWorkspace(db, {
      ownerId: (await createUser(db)).id,
      members: [{ userId: user.id, role: 'member' }],
    })
    await setActiveWorkspace(db, { id: browser.session.id, userId: user.id }, team.id)
    const activeOf = async (cookie: string) =>
      (
        (await get('get-session', { headers: { Cookie: cookie } })).data as {
          session: { activeOrganizationId: string }
        }
      ).session.activeOrganizationId

    expect(await activeOf(headers.Cookie)).toBe(team.id)
    // Each session has its own: the person's other browser still works in their personal one.
    expect(await activeOf(other.cookie)).toBe(user.id)
    // Out of the workspace, the session falls back to the personal one.
    await db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, team.id), eq(workspaceMembers.userId, user.id)))
    expect(await activeOf(headers.Cookie)).toBe(user.id)
  })
})

describe('POST sign-up/email', () => {
  test('creates the account and signs in: { token, user } and a session cookie', {
    timeout: 60_000,
  }, async () => {
    const db = database()
    const answer = await post('sign-up/email', {
      name: 'Api Person',
      email: 'API@Example.TEST',
      password: 'a long password',
      callbackURL: '/dashboard',
    })

    expect(answer.status).toBe(200)
    const body = answer.data as { token: string; user: { id: string } }
    const [row] = await db.select().from(users).where(eq(users.email, 'api@example.test'))
    expect(body).toEqual({ token: expect.any(String), user: expect.any(Object) })
    expectUserJson(body.user, { id: row?.id ?? '', email: 'api@example.test', name: 'Api Person' })
    expect(body.user).toMatchObject({ emailVerified: false })
    const session = await findSession(db, sessionCookieOf(answer.headers) ?? '')
    expect(session?.user.id).toBe(row?.id)
    expect(body.token).toBe(session?.id)
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'api@example.test'))).toHaveLength(1)
  })

  test('an address with an account answers 409 CONFLICT', async () => {
    await createUser(database(), { email: 'exists@example.test' })
    const answer = await post('sign-up/email', {
      name: 'X',
      email: 'exists@example.test',
      password: 'a long password',
    })
    expect(answer.status).toBe(409)
    expect(answer.data).toEqual({
      code: 'CONFLICT',
      message: 'An account with this e-mail already exists. Sign in instead.',
    })
  })

  test('a short password answers 400 VALIDATION_ERROR with the issues', async () => {
    const answer = await post('sign-up/email', { name: 'X', email: 'short@example.test', password: 'short' })
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Password must be at least 8 characters',
      issues: [expect.objectContaining({ path: ['password'] })],
    })
  })
})

describe('POST sign-in/email', () => {
  test('answers { redirect, token, url, user } and sets the session cookie', async () => {
    const db = database()
    const user = await createUser(db)
    const answer = await post('sign-in/email', {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
      callbackURL: '/settings',
      rememberMe: true,
    })

    expect(answer.status).toBe(200)
    const body = answer.data as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['redirect', 'token', 'url', 'user'])
    expect(body).toMatchObject({ redirect: true, url: '/settings' })
    expectUserJson(body.user, user)
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({
      'max-age': String(30 * 24 * 60 * 60),
      samesite: 'Lax',
      httponly: '',
      path: '/',
    })
    const session = await findSession(db, sessionCookieOf(answer.headers) ?? '')
    expect(session?.user.id).toBe(user.id)
    // The JSON's token is the session's public id, not the cookie's secret.
    expect(body.token).toBe(session?.id)
  })

  test('without a callbackURL there is nowhere to go: redirect is false', async () => {
    const user = await createUser(database())
    const answer = await post('sign-in/email', {
      email: user.email,
      password: TEST_PASSWORD,
      callbackURL: '//evil.com',
    })
    expect(answer.data).toMatchObject({ redirect: false })
    expect(answer.data).not.toHaveProperty('url')
  })

  test('a wrong password answers 401 with the same message as the form', async () => {
    const user = await createUser(database())
    const answer = await post('sign-in/email', { email: user.email, password: 'not it' })
    expect(answer.status).toBe(401)
    expect(answer.data).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid e-mail or password.' })
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
  })

  test('brute force answers 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const user = await createUser(database())
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await post('sign-in/email', { email: user.email, password: 'guess' })).status).toBe(401)
    }
    const limited = await post('sign-in/email', { email: user.email, password: 'guess' })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(limited.data).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many sign-in attempts for this e-mail. Try again later.',
    })
  })
})

describe('POST sign-out', () => {
  test('ends the session and clears the cookie: { success: true }', async () => {
    const { db, browser, headers } = await signedIn()
    const answer = await post('sign-out', {}, { headers })
    expect(answer.status).toBe(200)
    expect(answer.data).toEqual({ success: true })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await findSession(db, browser.session.token)).toBeNull()
  })

  test('a visitor gets the same answer', async () => {
    expect((await post('sign-out', {})).data).toEqual({ success: true })
  })
})

describe('POST update-user', () => {
  test('changes what is sent and keeps the rest: { status: true }', async () => {
    const { db, user, headers } = await signedIn({ image: 'https://img.example.test/1.png' })
    const renamed = await post('update-user', { name: 'Renamed' }, { headers })
    expect(renamed.status).toBe(200)
    expect(renamed.data).toEqual({ status: true })
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0]).toMatchObject({
      name: 'Renamed',
      image: 'https://img.example.test/1.png',
    })

    await post('update-user', { image: null }, { headers })
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0]).toMatchObject({
      name: 'Renamed',
      image: null,
    })
  })

  test('a bad image answers 400; a visitor 401', async () => {
    const { headers } = await signedIn()
    expect((await post('update-user', { image: 'ftp://x' }, { headers })).status).toBe(400)
    const anonymous = await post('update-user', { name: 'X' })
    expect(anonymous.status).toBe(401)
    expect(anonymous.data).toEqual({ code: 'UNAUTHORIZED', message: 'You need to sign in to do that.' })
  })
})

describe('POST delete-user', () => {
  test('with the password: { success: true, message: "User deleted" }, the user gone, the cookie cleared', async () => {
    const { db, user, headers } = await signedIn()
    const answer = await post('delete-user', { password: TEST_PASSWORD }, { headers })
    expect(answer.status).toBe(200)
    expect(answer.data).toEqual({ success: true, message: 'User deleted' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([])
  })

  test('a wrong password answers 403 FORBIDDEN and deletes nothing; a visitor 401', async () => {
    const { db, user, headers } = await signedIn()
    const answer = await post('delete-user', { password: 'not it' }, { headers })
    expect(answer.status).toBe(403)
    expect(answer.data).toEqual({
      code: 'FORBIDDEN',
      message: 'Password is incorrect; the account was not deleted.',
    })
    expect(await db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1)
    expect((await post('delete-user', { password: TEST_PASSWORD })).status).toBe(401)
  })
})

describe('sessions', () => {
  test('GET list-sessions lists only the caller’s live sessions; a visitor gets 401', async () => {
    const { db, user, browser, headers } = await signedIn()
    const phone = await signedInBrowser(db, user.id)
    await signedInBrowser(db, (await createUser(db)).id)

    const answer = await get('list-sessions', { headers })

    expect(answer.status).toBe(200)
    const listed = answer.data as { id: string; userId: string }[]
    expect(listed.map((session) => session.id).sort()).toEqual([browser.session.id, phone.session.id].sort())
    expect(listed.every((session) => session.userId === user.id)).toBe(true)
    expect(JSON.stringify(listed)).not.toContain(browser.session.token)
    expect((await get('list-sessions')).status).toBe(401)
  })

  test('POST revoke-other-sessions keeps this one: { status: true }', async () => {
    const { db, user, browser, headers } = await signedIn()
    const phone = await signedInBrowser(db, user.id)
    const answer = await post('revoke-other-sessions', {}, { headers })
    expect(answer.data).toEqual({ status: true })
    expect(await findSession(db, browser.session.token)).not.toBeNull()
    expect(await findSession(db, phone.session.token)).toBeNull()
  })

  test('POST revoke-sessions ends them all and clears the cookie: { status: true }', async () => {
    const { db, user, browser, headers } = await signedIn()
    const phone = await signedInBrowser(db, user.id)
    const answer = await post('revoke-sessions', {}, { headers })
    expect(answer.data).toEqual({ status: true })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await findSession(db, browser.session.token)).toBeNull()
    expect(await findSession(db, phone.session.token)).toBeNull()
  })

  test('a visitor cannot revoke anything: 401', async () => {
    expect((await post('revoke-sessions', {})).status).toBe(401)
    expect((await post('revoke-other-sessions', {})).status).toBe(401)
  })
})

describe('GET verify-email', () => {
  test('a good token verifies the address: { status: true, user }', async () => {
    const db = database()
    const user = await createUser(db, { emailVerifiedAt: null })
    const token = await linkToken(user.id, user.email, 'verify-email')

    const answer = await get(`verify-email?token=${token}`)

    expect(answer.status).toBe(200)
    expect(answer.data).toMatchObject({ status: true, user: { id: user.id, emailVerified: true } })
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.emailVerifiedAt).not.toBeNull()
    // Single use.
    const again = await get(`verify-email?token=${token}`)
    expect(again.status).toBe(400)
  })

  test('a bad token answers 400 with the message', async () => {
    const answer = await get('verify-email?token=made-up')
    expect(answer.status).toBe(400)
    expect(answer.data).toEqual({ code: 'BAD_REQUEST', message: INVALID_VERIFICATION_LINK })
    expect((await get('verify-email')).status).toBe(400)
  })

  test('with a callbackURL it redirects there, with ?error=INVALID_TOKEN on failure', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const token = await linkToken(user.id, user.email, 'verify-email')

    const good = await get(`verify-email?token=${token}&callbackURL=%2Fdashboard`)
    expect(good.status).toBe(302)
    expect(good.location).toBe('http://localhost/dashboard')

    const bad = await get('verify-email?token=made-up&callbackURL=%2Fdashboard%3Ftab%3D1')
    expect(bad.status).toBe(302)
    expect(bad.location).toBe('http://localhost/dashboard?tab=1&error=INVALID_TOKEN')
  })

  test('a foreign callbackURL is ignored (no open redirect)', async () => {
    const answer = await get('verify-email?token=made-up&callbackURL=https%3A%2F%2Fevil.com')
    expect(answer.status).toBe(400)
    expect(answer.location).toBeNull()
  })
})

describe('POST send-verification-email', () => {
  test('queues a new link for an unverified user: { status: true }', async () => {
    const { db, user, headers } = await signedIn({ emailVerifiedAt: null })
    const answer = await post('send-verification-email', {}, { headers })
    expect(answer.status).toBe(200)
    expect(answer.data).toEqual({ status: true })
    const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email))
    expect(mail.map((row) => row.subject)).toEqual(['Verify your e-mail address'])
  })

  test('an address already verified answers 409; a visitor 401', async () => {
    const { headers } = await signedIn()
    expect((await post('send-verification-email', {}, { headers })).status).toBe(409)
    expect((await post('send-verification-email', {})).status).toBe(401)
  })
})

describe('POST request-password-reset', () => {
  test('answers the same { status: true, message } whether or not the address has an account', async () => {
    const db = database()
    const user = await createUser(db)
    const known = await post('request-password-reset', {
      email: user.email,
      redirectTo: '/email/reset-password',
    })
    const unknown = await post('request-password-reset', { email: 'nobody-here@example.test' })

    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.data).toEqual({
      status: true,
      message: 'If this email exists in our system, check your email for the reset link',
    })
    expect(unknown.data).toEqual(known.data)
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email))).toHaveLength(1)
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'nobody-here@example.test'))).toEqual(
      [],
    )
  })
})

describe('POST reset-password', () => {
  test('sets the new password from a good token and ends every session: { status: true }', {
    timeout: 60_000,
  }, async () => {
    const { db, user, browser } = await signedIn()
    const token = await linkToken(user.id, user.email, 'reset-password')

    const answer = await post('reset-password', { newPassword: 'a brand new password', token })

    expect(answer.status).toBe(200)
    expect(answer.data).toEqual({ status: true })
    expect(await findSession(db, browser.session.token)).toBeNull()
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword('a brand new password', row?.passwordHash ?? '')).toBe(true)
  })

  test('a bad token answers 400 with the message; a short password 400 VALIDATION_ERROR', async () => {
    const bad = await post('reset-password', { newPassword: 'a brand new password', token: 'made-up' })
    expect(bad.status).toBe(400)
    expect(bad.data).toEqual({ code: 'BAD_REQUEST', message: INVALID_RESET_LINK })
    const short = await post('reset-password', { newPassword: 'short', token: 'made-up' })
    expect(short.status).toBe(400)
    expect(short.data).toMatchObject({ code: 'VALIDATION_ERROR' })
  })
})

describe('OAuth callbacks', () => {
  test.each(['github', 'google'])(
    'GET callback/%s forwards to /login/callback with the query',
    async (provider) => {
      const answer = await get(`callback/${provider}?code=abc&state=xyz`)
      expect(answer.status).toBe(302)
      expect(answer.location).toBe('http://localhost/login/callback?code=abc&state=xyz')
    },
  )
})
