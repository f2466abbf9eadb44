import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { passkeys, users } from '~/db/schema'
import { CHALLENGE_EXPIRED, PASSKEY_UNKNOWN, relyingParty } from '~/services/passkeys.server'
import { ACCOUNT_DISABLED, findSession } from '~/services/sessions.server'
import {
  anonymousBrowser,
  callThroughMiddleware,
  clientContext,
  sessionCookieOf,
  signedInBrowser,
  type TestBrowser,
} from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { softwareAuthenticator } from '../../../tests/helpers/passkey-authenticator'
import { action } from './passkeys'

/**
 * /api/passkeys/:step as the browser's script calls it: JSON posts with the page's CSRF token in
 * `x-csrf-token`, through the root middleware, answered with the ceremony's options, the added
 * passkey, or a session cookie.
 */

const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

function post(step: string, browser: TestBrowser, json: unknown = {}, extra: HeadersInit = {}) {
  return callThroughMiddleware(action, {
    url: `/api/passkeys/${step}`,
    params: { step },
    json,
    headers: browser.headers({ extra: { 'User-Agent': USER_AGENT, ...extra } }),
    context: clientContext(),
  })
}

/** A signed-in person who adds a passkey through the routes, as /settings does. */
async function personWithPasskey() {
  const db = database()
  const user = await createUser(db)
  const browser = await signedInBrowser(db, user.id)
  const device = softwareAuthenticator({ origin: relyingParty().origin })
  const options = await post('register-options', browser)
  expect(options.status).toBe(200)
  const added = await post('register', browser, { response: device.create(options.body as never) })
  return { db, user, browser, device, added }
}

describe('adding a passkey', () => {
  test('options, then the new credential: 201 with the passkey named from the browser', async () => {
    const { db, user, added } = await personWithPasskey()
    expect(added.status).toBe(201)
    expect(added.body).toEqual({ passkey: { id: expect.any(String), name: 'Passkey on Chrome on Linux' } })
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1)
  })

  test('a visitor is 401, and nothing is stored', async () => {
    const answer = await post('register-options', anonymousBrowser())
    expect(answer).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  test('without the CSRF token, or from another origin, the middleware refuses it', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const noToken = await callThroughMiddleware(action, {
      url: '/api/passkeys/register-options',
      params: { step: 'register-options' },
      json: {},
      headers: browser.headers({ withCsrf: false }),
    })
    expect(noToken).toMatchObject({ status: 403, body: { code: 'INVALID_CSRF_TOKEN' }, handled: false })
    const foreign = await post('register-options', browser, {}, { Origin: 'https://evil.example' })
    expect(foreign).toMatchObject({ status: 403, handled: false })
  })

  test('a body that is not a credential is 400', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await post('register', browser, { response: { id: 'x' } })
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
  })
})

describe('signing in with a passkey', () => {
  test('a visitor signs in with no e-mail: a session cookie and where to go', async () => {
    const { user, device } = await personWithPasskey()
    const visitor = anonymousBrowser()
    const options = await post('sign-in-options', visitor)
    expect(options.body).toMatchObject({ rpId: 'localhost', userVerification: 'required' })
    expect(options.body).not.toHaveProperty('allowCredentials', expect.arrayContaining([expect.anything()]))

    const answer = await post('sign-in', visitor, {
      response: device.get(options.body as never),
      redirect: '/task',
    })
    expect(answer).toMatchObject({ status: 200, body: { redirectTo: '/task' } })
    const token = sessionCookieOf(answer.headers)
    expect(token).toBeTruthy()
    expect((await findSession(database(), token ?? ''))?.user.id).toBe(user.id)
  })

  test('an outside redirect lands on the dashboard instead', async () => {
    const { device } = await personWithPasskey()
    const visitor = anonymousBrowser()
    const options = await post('sign-in-options', visitor)
    const answer = await post('sign-in', visitor, {
      response: device.get(options.body as never),
      redirect: 'https://evil.example/',
    })
    expect(answer.body).toEqual({ redirectTo: '/dashboard' })
  })

  test('the same answer twice is refused the second time, with no session', async () => {
    const { device } = await personWithPasskey()
    const visitor = anonymousBrowser()
    const options = await post('sign-in-options', visitor)
    const response = device.get(options.body as never)
    expect((await post('sign-in', visitor, { response })).status).toBe(200)
    const replay = await post('sign-in', visitor, { response })
    expect(replay).toMatchObject({ status: 400, body: { message: CHALLENGE_EXPIRED } })
    expect(sessionCookieOf(replay.headers)).toBeUndefined()
  })

  test('a passkey removed in settings is 401, with no session', async () => {
    const { db, user, device } = await personWithPasskey()
    await db.delete(passkeys).where(eq(passkeys.userId, user.id))
    const visitor = anonymousBrowser()
    const options = await post('sign-in-options', visitor)
    const answer = await post('sign-in', visitor, { response: device.get(options.body as never) })
    expect(answer).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: PASSKEY_UNKNOWN } })
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
  })

  test('a disabled account (/admin) signs in with no passkey: 403, with no session; enabled again, it does', async () => {
    const { db, user, device } = await personWithPasskey()
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id))
    const visitor = anonymousBrowser()
    const options = await post('sign-in-options', visitor)
    const refused = await post('sign-in', visitor, { response: device.get(options.body as never) })
    expect(refused).toMatchObject({ status: 403, body: { message: ACCOUNT_DISABLED } })
    expect(sessionCookieOf(refused.headers)).toBeUndefined()
    await db.update(users).set({ disabledAt: null }).where(eq(users.id, user.id))
    const again = await post('sign-in-options', visitor)
    const answer = await post('sign-in', visitor, { response: device.get(again.body as never) })
    expect(answer.status).toBe(200)
  })

  test('an unknown step is 404', async () => {
    expect((await post('enroll', anonymousBrowser())).status).toBe(404)
  })
})
