import { generateTOTP } from '@epic-web/totp'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { DEVICE_COOKIE, TWO_FACTOR_COOKIE } from '~/auth/sign-in.server'
import { database } from '~/db/client.server'
import { emailOutbox, sessions } from '~/db/schema'
import { action as authAction } from '~/routes/api/auth'
import { action as loginAction } from '~/routes/auth/login'
import { action as codeAction, loader as codeLoader } from '~/routes/auth/login-two-factor'
import { action as signupAction } from '~/routes/auth/signup'
import { createSession, findSession } from '~/services/sessions.server'
import { beginTwoFactor, confirmTwoFactor, TOTP } from '~/services/two-factor.server'
import { clientContext, sessionCookieOf } from '../helpers/auth'
import { createUser, TEST_PASSWORD } from '../helpers/factories'
import { callAction, callLoader, cookieHeaderFrom } from '../helpers/route'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../helpers/rpc'

/**
 * Every way of signing in gives an account with two-factor on no session before the second
 * factor: the sign-in form, /api/auth, and (tests/integration/oauth.test.ts) GitHub and Google; a half-signed-in cookie
 * opens nothing, not even an RPC call. Then the new-sign-in e-mail, one per browser.
 */

afterEach(() => {
  vi.useRealTimers()
})

async function codeAt(secret: string, at = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date'], now: at })
  const { otp } = await generateTOTP({ ...TOTP, secret })
  vi.useRealTimers()
  return otp
}

/** A person with two-factor on; the step before now was used to confirm, so now's code is fresh. */
async function personWithTwoFactor() {
  const db = database()
  const user = await createUser(db)
  const setup = await beginTwoFactor(db, user.id, { password: TEST_PASSWORD })
  const { id } = await createSession(db, user.id)
  await confirmTwoFactor(db, user.id, await codeAt(setup.secret, Date.now() - TOTP.period * 1000), id)
  await db.delete(sessions).where(eq(sessions.userId, user.id))
  return { user, ...setup }
}

async function sessionsOf(userId: string) {
  return database().select().from(sessions).where(eq(sessions.userId, userId))
}

function pendingCookieOf(headers: Headers) {
  return headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${TWO_FACTOR_COOKIE}=`) && !/Max-Age=0/.test(cookie))
}

async function signInWithForm(email: string, cookie = '') {
  return callAction(loginAction, {
    url: '/login',
    form: { email, password: TEST_PASSWORD, redirect: '/task' },
    headers: { Cookie: cookie },
    context: clientContext(),
  })
}

describe('the sign-in form', () => {
  test('the password leads to the code page and no session; a right code gives the session and goes on', async () => {
    const { user, secret } = await personWithTwoFactor()

    const first = await signInWithForm(user.email)
    expect(first).toMatchObject({ status: 302, location: '/login/two-factor' })
    expect(sessionCookieOf(first.headers)).toBeUndefined()
    expect(pendingCookieOf(first.headers)).toContain('Max-Age=600')
    expect(await sessionsOf(user.id)).toEqual([])
    const cookie = cookieHeaderFrom(first.headers)

    const page = await callLoader(codeLoader, { url: '/login/two-factor', headers: { Cookie: cookie } })
    expect(page.status).toBe(200)

    const wrong = await callAction(codeAction, {
      url: '/login/two-factor',
      form: { intent: 'totp', code: '000000' },
      headers: { Cookie: cookie },
      context: clientContext(),
    })
    expect(wrong.status).toBe(401)
    expect(sessionCookieOf(wrong.headers)).toBeUndefined()

    const right = await callAction(codeAction, {
      url: '/login/two-factor',
      form: { intent: 'totp', code: await codeAt(secret) },
      headers: { Cookie: cookie },
      context: clientContext(),
    })
    expect(right).toMatchObject({ status: 302, location: '/task' })
    const token = sessionCookieOf(right.headers) ?? ''
    expect((await findSession(database(), token))?.user.id).toBe(user.id)
    expect(await sessionsOf(user.id)).toEqual([
      expect.objectContaining({ method: 'password', isTwoFactor: true }),
    ])
    expect(right.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${TWO_FACTOR_COOKIE}=; .*Max-Age=0`))]),
    )
  })

  test('the code page without a pending sign-in goes back to /login; a forged pending cookie counts as none', async () => {
    const { user } = await personWithTwoFactor()
    expect(await callLoader(codeLoader, { url: '/login/two-factor' })).toMatchObject({
      status: 302,
      location: '/login',
    })
    const forged = `${TWO_FACTOR_COOKIE}=${Buffer.from(JSON.stringify({ userId: user.id, method: 'password', redirectTo: '', expiresAt: Date.now() + 60_000 })).toString('base64url')}.forged`
    const answer = await callAction(codeAction, {
      url: '/login/two-factor',
      form: { intent: 'totp', code: '123456' },
      headers: { Cookie: forged },
      context: clientContext(),
    })
    expect(answer.status).toBe(401)
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
  })

  test('after five wrong codes the page says how many minutes to wait, with 429 and Retry-After', async () => {
    const { user, secret } = await personWithTwoFactor()
    const cookie = cookieHeaderFrom((await signInWithForm(user.email)).headers)
    const send = (code: string) =>
      callAction(codeAction, {
        url: '/login/two-factor',
        form: { intent: 'totp', code },
        headers: { Cookie: cookie },
        context: clientContext(),
      })
    for (let attempt = 0; attempt < 5; attempt++) expect((await send('000000')).status).toBe(401)

    const locked = await send(await codeAt(secret))
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(14 * 60)
    expect(JSON.stringify(locked.data)).toContain('Try again in 15 minutes.')
    expect(sessionCookieOf(locked.headers)).toBeUndefined()
  })

  test('a recovery code signs in once', async () => {
    const { user, recoveryCodes } = await personWithTwoFactor()
    const signInWithRecoveryCode = async () => {
      const cookie = cookieHeaderFrom((await signInWithForm(user.email)).headers)
      return callAction(codeAction, {
        url: '/login/two-factor',
        form: { intent: 'recovery', code: recoveryCodes[3] ?? '' },
        headers: { Cookie: cookie },
        context: clientContext(),
      })
    }
    expect(await signInWithRecoveryCode()).toMatchObject({ status: 302, location: '/task' })
    const again = await signInWithRecoveryCode()
    expect(again.status).toBe(401)
    expect(sessionCookieOf(again.headers)).toBeUndefined()
  })
})

describe('the JSON endpoints and RPC', () => {
  const post = (path: string, json: unknown, cookie = '') =>
    callAction(authAction, {
      url: `/api/auth/${path}`,
      json,
      params: { '*': path },
      headers: { Cookie: cookie },
      context: clientContext(),
    })

  test('sign-in answers { twoFactorRedirect: true } and no session; verify-totp with the pending cookie signs in', async () => {
    const { user, secret } = await personWithTwoFactor()

    const first = await post('sign-in/email', { email: user.email, password: TEST_PASSWORD })
    expect(first.status).toBe(200)
    expect(first.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] })
    expect(sessionCookieOf(first.headers)).toBeUndefined()
    const cookie = cookieHeaderFrom(first.headers)

    // Half signed in: the RPC endpoint knows nobody.
    const rpc = await answerThroughRpcRoute(
      rpcRequest('task/getAll', undefined, { headers: { Cookie: cookie } }),
    )
    expect(rpc.status).toBe(401)
    expect(await readRpcJson(rpc)).toMatchObject({ code: 'UNAUTHORIZED' })

    const wrong = await post('two-factor/verify-totp', { code: '000000' }, cookie)
    expect(wrong.status).toBe(401)
    const code = await codeAt(secret)
    const right = await post('two-factor/verify-totp', { code, trustDevice: true }, cookie)
    expect(right.status).toBe(200)
    expect(right.data).toMatchObject({
      token: expect.any(String),
      user: { id: user.id, email: user.email, twoFactorEnabled: true },
    })
    expect(sessionCookieOf(right.headers)).toBeTruthy()

    // The same code again, with a new pending sign-in, is refused: codes work once.
    const second = await post('sign-in/email', { email: user.email, password: TEST_PASSWORD })
    const replay = await post('two-factor/verify-totp', { code }, cookieHeaderFrom(second.headers))
    expect(replay.status).toBe(401)
    expect(sessionCookieOf(replay.headers)).toBeUndefined()
  })

  test('verify-backup-code without a pending sign-in is 401', async () => {
    const { recoveryCodes } = await personWithTwoFactor()
    const answer = await post('two-factor/verify-backup-code', { code: recoveryCodes[0] })
    expect(answer.status).toBe(401)
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
  })
})

describe('the new-sign-in e-mail', () => {
  async function alertsTo(email: string) {
    const rows = await database().select().from(emailOutbox).where(eq(emailOutbox.to, email))
    return rows.filter((row) => row.subject === 'New sign-in to your Threadwork account')
  }

  test('one per browser: a new browser gets it, the same browser again does not', async () => {
    const db = database()
    const user = await createUser(db)
    const userAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0'
    const first = await callAction(loginAction, {
      url: '/login',
      form: { email: user.email, password: TEST_PASSWORD },
      headers: { 'User-Agent': userAgent },
      context: clientContext(),
    })
    const device = first.headers.getSetCookie().find((cookie) => cookie.startsWith(`${DEVICE_COOKIE}=`))
    expect(device).toContain(`Max-Age=${365 * 24 * 60 * 60}`)
    const [alert, ...more] = await alertsTo(user.email)
    expect(more).toEqual([])
    expect(alert?.text).toContain('Method: Password.')
    expect(alert?.text).toContain('Browser: Firefox on Windows.')
    expect(alert?.text).toContain('http://localhost:3000/settings')

    await callAction(loginAction, {
      url: '/login',
      form: { email: user.email, password: TEST_PASSWORD },
      headers: { 'User-Agent': userAgent, Cookie: device?.split(';')[0] ?? '' },
      context: clientContext(),
    })
    expect(await alertsTo(user.email)).toHaveLength(1)
  })

  test('none for the sign-up itself', async () => {
    const email = `new-${Date.now()}@example.test`
    const answer = await callAction(signupAction, {
      url: '/signup',
      form: { name: 'New Person', email, password: 'a long enough password' },
      context: clientContext(),
    })
    expect(answer.status).toBe(302)
    expect(await alertsTo(email)).toEqual([])
  })
})
