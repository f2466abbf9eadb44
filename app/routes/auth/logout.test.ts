import { describe, expect, test, vi } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { findSession } from '~/services/sessions.server'
import { callThroughMiddleware, cookieAttributes, signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { callAction, callLoader } from '../../../tests/helpers/route'
import { action, loader } from './logout'

/** Sign Out: the session row ends, the cookie is cleared, and the browser goes to /dashboard. */

describe('POST /logout', () => {
  test('ends the session, clears the cookie and goes to /dashboard', async () => {
    const db = database()
    const user = await createUser(db)
    const browser = await signedInBrowser(db, user.id)
    const otherDevice = await signedInBrowser(db, user.id)

    const answer = await callThroughMiddleware(action, {
      url: '/logout',
      headers: { Cookie: browser.cookie },
      form: browser.form({}),
    })

    expect(answer).toMatchObject({ status: 302, location: '/dashboard' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0', path: '/' })
    expect(answer.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(
      new RegExp(`^${SESSION_COOKIE}=;`),
    )
    expect(await findSession(db, browser.session.token)).toBeNull()
    // Only this device signs out.
    expect(await findSession(db, otherDevice.session.token)).not.toBeNull()
  })

  test('without the CSRF token it is refused and the session stays (no sign-out by a foreign page)', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await callThroughMiddleware(action, {
      url: '/logout',
      headers: { Cookie: browser.cookie },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    expect(await findSession(db, browser.session.token)).not.toBeNull()
  })

  test('a signed-out visitor just gets the cookie cleared and the redirect', async () => {
    const answer = await callAction(action, { url: '/logout' })
    expect(answer).toMatchObject({ status: 302, location: '/dashboard' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
  })

  test("a failure to delete the row is only logged ('Signout failed'); the cookie is cleared anyway", async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const deleteSpy = vi.spyOn(db, 'delete').mockImplementation(() => {
      throw new Error('disk I/O error')
    })
    try {
      const answer = await callAction(action, { url: '/logout', headers: { Cookie: browser.cookie } })
      expect(answer).toMatchObject({ status: 302, location: '/dashboard' })
      expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
      expect(log).toHaveBeenCalledWith('Signout failed', expect.any(Error))
    } finally {
      deleteSpy.mockRestore()
      log.mockRestore()
    }
  })
})

describe('GET /logout', () => {
  test('signs nobody out: a link or an image cannot end a session', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await callLoader(loader, { url: '/logout', headers: { Cookie: browser.cookie } })
    expect(answer).toMatchObject({ status: 302, location: '/' })
    expect(answer.headers.getSetCookie()).toEqual([])
    expect(await findSession(db, browser.session.token)).not.toBeNull()
  })
})
