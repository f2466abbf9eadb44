import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { tasks, users } from '~/db/schema'
import { SESSION_NOT_FOUND } from '~/services/profile.server'
import { findSession } from '~/services/sessions.server'
import { readToast } from '~/toast.server'
import { verifyPassword } from '~/utils/crypto.server'
import { callThroughMiddleware, cookieAttributes, signedInBrowser } from '../../../tests/helpers/auth'
import { createTask, createTeamWorkspace, createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { renderRoute, textContent, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import Settings, { action, loader } from './index'

/**
 * /settings: every intent of its forms as the browser posts them (hidden `intent` field, the
 * session cookie), and what each leaves behind in the database and the cookies.
 */

type Reply = { intent?: string | null; result?: { error?: Record<string, string[] | null> } | null }
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const db = database()
  const user = await createUser(db, overrides)
  const browser = await signedInBrowser(db, user.id, {
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
    ip: '203.0.113.1',
  })
  /** Posts one of the page's forms. */
  const post = (fields: Record<string, string>) =>
    callAction(action, { url: '/settings', headers: { Cookie: browser.cookie }, form: browser.form(fields) })
  return { db, user, browser, post }
}

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/settings' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fsettings' })
  })

  test('lists the account and its sessions, this device first', async () => {
    const { db, user, browser } = await signedInUser({ name: 'Ada' })
    const phone = await signedInBrowser(db, user.id, {
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile Safari/537.36',
    })
    await signedInBrowser(db, (await createUser(db)).id)

    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })

    expect(page.status).toBe(200)
    expect(page.data.account).toMatchObject({ id: user.id, name: 'Ada', hasPassword: true, providers: [] })
    expect(page.data.sessions).toEqual([
      expect.objectContaining({
        id: browser.session.id,
        device: 'Safari on macOS',
        ip: '203.0.113.1',
        isCurrent: true,
      }),
      expect.objectContaining({ id: phone.session.id, device: 'Chrome on Android', isCurrent: false }),
    ])
    const shown = renderRoute(
      { id: 'routes/settings/index', path: '/settings', Component: Settings },
      { loaderData: page.data },
    )
    expect(textContent(shown)).toContain('Safari on macOS This device')
  })
})

describe('update-profile', () => {
  test('saves the name and image and comes back with a toast', async () => {
    const { db, user, post } = await signedInUser()
    const answer = await post({
      intent: 'update-profile',
      name: 'Ada King',
      image: 'https://img.example.test/a.png',
    })
    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({ type: 'success', title: 'Profile updated' })
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect(row).toMatchObject({ name: 'Ada King', image: 'https://img.example.test/a.png' })
  })

  test('an empty name or a non-http image answers 400 on those fields', async () => {
    const { post } = await signedInUser()
    const answer = await post({ intent: 'update-profile', name: '', image: 'javascript:alert(1)' })
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ intent: 'update-profile' })
    expect(errorsOf(answer.data, 'name')).toEqual(['Name is required'])
    expect(errorsOf(answer.data, 'image')).toEqual(['Image must be an http(s) URL'])
  })
})

describe('change-password', () => {
  test('a wrong current password answers 400 with the message; nothing changes', async () => {
    const { db, user, post } = await signedInUser()
    const answer = await post({
      intent: 'change-password',
      currentPassword: 'not it',
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    })
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ intent: 'change-password' })
    expect(errorsOf(answer.data)).toEqual(['Current password is incorrect.'])
    expect(JSON.stringify(answer.data)).not.toMatch(/not it|a new password/)
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect(row?.passwordHash).toBe(user.passwordHash)
  })

  test('a short or unrepeated new password answers 400', async () => {
    const { post } = await signedInUser()
    const short = await post({
      intent: 'change-password',
      currentPassword: TEST_PASSWORD,
      newPassword: 'short',
      confirmPassword: 'short',
    })
    expect(short.status).toBe(400)
    expect(errorsOf(short.data, 'newPassword')).toEqual(['Password must be at least 8 characters'])
    const mismatch = await post({
      intent: 'change-password',
      currentPassword: TEST_PASSWORD,
      newPassword: 'a new password',
      confirmPassword: 'another one',
    })
    expect(errorsOf(mismatch.data, 'confirmPassword')).toEqual(['Passwords do not match'])
  })

  test('the right current password changes it and signs out every other device', {
    timeout: 60_000,
  }, async () => {
    const { db, user, browser, post } = await signedInUser()
    const phone = await signedInBrowser(db, user.id)

    const answer = await post({
      intent: 'change-password',
      currentPassword: TEST_PASSWORD,
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    })

    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({
      title: 'Password changed',
      description: 'Your other devices were signed out.',
    })
    expect(await findSession(db, browser.session.token)).not.toBeNull()
    expect(await findSession(db, phone.session.token)).toBeNull()
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword('a new password', row?.passwordHash ?? '')).toBe(true)
  })
})

describe('sessions', () => {
  test('revoke-session ends another device and comes back to settings', async () => {
    const { db, user, browser, post } = await signedInUser()
    const phone = await signedInBrowser(db, user.id)

    const answer = await post({ intent: 'revoke-session', sessionId: phone.session.id })

    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Session revoked' })
    expect(await findSession(db, phone.session.token)).toBeNull()
    expect(await findSession(db, browser.session.token)).not.toBeNull()
  })

  test("another person's session id: 404 with the form's message, and both sessions live on", async () => {
    const { db, browser, post } = await signedInUser()
    const stranger = await signedInBrowser(db, (await createUser(db)).id)

    const answer = await post({ intent: 'revoke-session', sessionId: stranger.session.id })

    expect(answer.status).toBe(404)
    expect(answer.data).toMatchObject({ intent: 'revoke-session' })
    expect(errorsOf(answer.data)).toEqual([SESSION_NOT_FOUND])
    expect(answer.headers.getSetCookie()).toEqual([])
    expect(await findSession(db, stranger.session.token)).not.toBeNull()
    expect(await findSession(db, browser.session.token)).not.toBeNull()
  })

  test('a session that has already ended, or an id that never was: the same 404', async () => {
    const { db, user, post } = await signedInUser()
    const phone = await signedInBrowser(db, user.id)
    expect((await post({ intent: 'revoke-session', sessionId: phone.session.id })).status).toBe(302)
    for (const sessionId of [phone.session.id, 'no-such-session']) {
      const answer = await post({ intent: 'revoke-session', sessionId })
      expect(answer.status).toBe(404)
      expect(errorsOf(answer.data)).toEqual([SESSION_NOT_FOUND])
    }
  })

  test('the refusal shows above the list of sessions', async () => {
    const { db, browser, post } = await signedInUser()
    const stranger = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await post({ intent: 'revoke-session', sessionId: stranger.session.id })
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
    const html = renderRoute(
      { id: 'routes/settings/index', path: '/settings', Component: Settings },
      { loaderData: page.data, actionData: answer.data },
    )
    expect(visibleText(html)).toContain(SESSION_NOT_FOUND)
  })

  test('revoking this device signs it out: cookie cleared, on to /login', async () => {
    const { db, browser, post } = await signedInUser()
    const answer = await post({ intent: 'revoke-session', sessionId: browser.session.id })
    expect(answer).toMatchObject({ status: 302, location: '/login' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await findSession(db, browser.session.token)).toBeNull()
  })

  test('revoke-session without a session id answers 400', async () => {
    const { post } = await signedInUser()
    expect((await post({ intent: 'revoke-session' })).status).toBe(400)
  })

  test('revoke-other-sessions keeps only this device', async () => {
    const { db, user, browser, post } = await signedInUser()
    const phone = await signedInBrowser(db, user.id)
    const tablet = await signedInBrowser(db, user.id)

    const answer = await post({ intent: 'revoke-other-sessions' })

    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Signed out of every other device' })
    expect(await findSession(db, browser.session.token)).not.toBeNull()
    expect(await findSession(db, phone.session.token)).toBeNull()
    expect(await findSession(db, tablet.session.token)).toBeNull()
  })

  test('revoke-all-sessions ends every session, this one too', async () => {
    const { db, user, browser, post } = await signedInUser()
    const phone = await signedInBrowser(db, user.id)

    const answer = await post({ intent: 'revoke-all-sessions' })

    expect(answer).toMatchObject({ status: 302, location: '/login' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await findSession(db, browser.session.token)).toBeNull()
    expect(await findSession(db, phone.session.token)).toBeNull()
  })
})

describe('delete-account', () => {
  test('names the team workspaces the person owns and what becomes of each', async () => {
    const { db, user, browser } = await signedInUser()
    const grace = await createUser(db, { name: 'Grace' })
    await createTeamWorkspace(db, {
      ownerId: user.id,
      name: 'Labs',
      members: [{ userId: grace.id, role: 'admin' }],
    })
    await createTeamWorkspace(db, { ownerId: user.id, name: 'Solo' })
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
    const text = visibleText(
      renderRoute(
        { id: 'routes/settings/index', path: '/settings', Component: Settings },
        { loaderData: page.data },
      ),
    )
    expect(text).toContain('Workspaces you own:')
    expect(text).toContain('Labs passes to Grace')
    expect(text).toContain('Solo is deleted with its tasks')
  })

  test('a wrong password answers 403 with the message and deletes nothing', async () => {
    const { db, user, post } = await signedInUser()
    const answer = await post({ intent: 'delete-account', password: 'not it' })
    expect(answer.status).toBe(403)
    expect(answer.data).toMatchObject({ intent: 'delete-account' })
    expect(errorsOf(answer.data)).toEqual(['Password is incorrect; the account was not deleted.'])
    expect(await db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1)
  })

  test('with the password, the user and their tasks are gone, the cookie cleared, and home with a toast', async () => {
    const { db, user, browser, post } = await signedInUser()
    await createTask(db, { userId: user.id })

    const answer = await post({ intent: 'delete-account', password: TEST_PASSWORD })

    expect(answer).toMatchObject({ status: 302, location: '/' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Your account was deleted' })
    expect(cookieAttributes(answer.headers, SESSION_COOKIE)).toMatchObject({ 'max-age': '0' })
    expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([])
    expect(await db.select().from(tasks).where(eq(tasks.userId, user.id))).toEqual([])
    expect(await findSession(db, browser.session.token)).toBeNull()
  })

  test('an account without a password confirms with the phrase; a wrong phrase answers 400', async () => {
    const { db, user, post } = await signedInUser({ password: null })
    const wrong = await post({ intent: 'delete-account', confirmation: 'yes' })
    expect(wrong.status).toBe(400)
    expect(errorsOf(wrong.data)).toEqual(['Type "delete my account" to confirm.'])

    const answer = await post({ intent: 'delete-account', confirmation: 'delete my account' })
    expect(answer).toMatchObject({ status: 302, location: '/' })
    expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([])
  })
})

describe('every intent', () => {
  test('an unknown or missing intent answers 400', async () => {
    const { post } = await signedInUser()
    expect((await post({ intent: 'make-me-admin' })).status).toBe(400)
    expect((await post({})).status).toBe(400)
  })

  test('a visitor is sent to sign in, whatever the intent', async () => {
    const answer = await callAction(action, { url: '/settings', form: { intent: 'revoke-all-sessions' } })
    expect(answer).toMatchObject({ status: 302, location: '/login?redirect=%2Fsettings' })
  })

  test.each(['update-profile', 'revoke-other-sessions', 'revoke-all-sessions', 'delete-account'])(
    '%s without the CSRF token is refused before anything runs',
    async (intent) => {
      const { db, user, browser } = await signedInUser()
      const phone = await signedInBrowser(db, user.id)
      const answer = await callThroughMiddleware(action, {
        url: '/settings',
        headers: { Cookie: browser.cookie },
        form: { intent, name: 'Changed', password: TEST_PASSWORD },
      })
      expect(answer).toMatchObject({ status: 403, body: 'Invalid CSRF token', handled: false })
      expect(await findSession(db, phone.session.token)).not.toBeNull()
      expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.name).toBe(user.name)
    },
  )
})

describe('the page', () => {
  /** The settings page as the server renders it for this loader data. */
  async function renderFor(overrides: Parameters<typeof createUser>[1] = {}) {
    const { browser } = await signedInUser(overrides)
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
    return renderRoute(
      { id: 'routes/settings/index', path: '/settings', Component: Settings },
      { loaderData: page.data },
    )
  }

  /** The element each `form="…"` attribute points at: an input is submitted only with a <form>. */
  function formOwners(html: string) {
    return [...new Set([...html.matchAll(/\sform="([^"]+)"/g)].map(([, id]) => id))].map((id) => ({
      id,
      owner: new RegExp(`<(\\w+)[^>]*\\sid="${id}"`).exec(html)?.[1],
    }))
  }

  test.each([
    ['with a password', {}],
    ['without one', { password: null }],
  ] as const)(
    'every field belongs to a real form (%s), so each form posts its inputs',
    async (_label, overrides) => {
      const html = await renderFor(overrides)
      const owners = formOwners(html)
      expect(owners.map((owner) => owner.id)).toEqual(
        expect.arrayContaining(['update-profile', 'change-password', 'delete-account']),
      )
      for (const { id, owner } of owners) expect(owner, `the first element with id="${id}"`).toBe('form')
      const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map(([, id]) => id)
      expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([])
    },
  )
})
