import { describe, expect, test } from 'vitest'
import { isValidCsrfToken } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { loader as rootLoader } from '~/root'
import { action as loginAction, loader as loginLoader } from '~/routes/auth/login'
import { action as logoutAction } from '~/routes/auth/logout'
import { loader as dashboardLoader } from '~/routes/dashboard/index'
import { findSession } from '~/services/sessions.server'
import { callThroughMiddleware, sessionCookieOf, signedInBrowser } from '../helpers/auth'
import { createTask, createUser, TEST_PASSWORD } from '../helpers/factories'
import { callLoader, cookieHeaderFrom } from '../helpers/route'

/**
 * The signed-in pages as a browser meets them, every request through the root middleware: the
 * dashboard's guard, what the root tells every page about the visitor, and one whole visit —
 * sign in from the redirect, use the dashboard, sign out.
 */

type DashboardData = { user: { id: string }; byStatus: Record<string, number>; total: number }

describe('/dashboard', () => {
  test('sends a visitor to /login?redirect=%2Fdashboard', async () => {
    const page = await callLoader(dashboardLoader, { url: '/dashboard' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fdashboard' })
  })

  test("counts the signed-in user's own tasks by status", async () => {
    const db = database()
    const user = await createUser(db, { name: 'Ada' })
    await createTask(db, { userId: user.id, status: 'Not Started' })
    await createTask(db, { userId: user.id, status: 'Not Started' })
    await createTask(db, { userId: user.id, status: 'Completed' })
    await createTask(db) // someone else's
    const browser = await signedInBrowser(db, user.id)

    const page = await callLoader(dashboardLoader, { url: '/dashboard', headers: { Cookie: browser.cookie } })

    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({
      user: { id: user.id, name: 'Ada' },
      stats: { own: { byStatus: { 'Not Started': 2, 'In Progress': 0, Completed: 1 }, total: 3 } },
    })
  })

  test('a new user has no tasks', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const page = await callLoader(dashboardLoader, { url: '/dashboard', headers: { Cookie: browser.cookie } })
    expect(page.data).toMatchObject({
      stats: { own: { total: 0, byStatus: { 'Not Started': 0, 'In Progress': 0, Completed: 0 } } },
    })
  })
})

describe('the root loader', () => {
  test('a visitor: no user and no token (public pages stay free of per-visitor data)', async () => {
    const page = await callThroughMiddleware(rootLoader, { url: '/' }, 'GET')
    expect(page.body).toMatchObject({ user: null, csrfToken: null })
    expect(page.headers.getSetCookie()).toEqual([])
  })

  test('signed in: the user, and a token bound to the session for every form on the page', async () => {
    const db = database()
    const user = await createUser(db, { name: 'Grace' })
    const browser = await signedInBrowser(db, user.id)
    const page = await callThroughMiddleware(
      rootLoader,
      { url: '/', headers: { Cookie: browser.cookie } },
      'GET',
    )
    const body = page.body as { user: { id: string; name: string }; csrfToken: string }
    expect(body.user).toMatchObject({ id: user.id, name: 'Grace', emailVerified: true })
    expect(isValidCsrfToken(body.csrfToken, `session:${browser.session.id}`)).toBe(true)
  })
})

describe('a whole visit', () => {
  test('dashboard → sign in → dashboard → sign out → dashboard asks to sign in again', async () => {
    const db = database()
    const user = await createUser(db)
    let cookie = ''
    const remember = (headers: Headers) => {
      const set = cookieHeaderFrom(headers)
      const jar = new Map(
        [...cookie.split('; '), ...set.split('; ')].filter(Boolean).map((pair) => {
          const index = pair.indexOf('=')
          return [pair.slice(0, index), pair.slice(index + 1)] as const
        }),
      )
      for (const expired of headers.getSetCookie().filter((c) => /Max-Age=0/.test(c))) {
        jar.delete(expired.slice(0, expired.indexOf('=')))
      }
      cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    }

    const guarded = await callThroughMiddleware(dashboardLoader, { url: '/dashboard' }, 'GET')
    expect(guarded).toMatchObject({ status: 302, location: '/login?redirect=%2Fdashboard' })

    const login = await callThroughMiddleware(loginLoader, { url: guarded.location ?? '' }, 'GET')
    remember(login.headers)
    const { csrfToken, redirect } = login.body as { csrfToken: string; redirect: string }
    expect(redirect).toBe('/dashboard')

    const signedIn = await callThroughMiddleware(loginAction, {
      url: '/login',
      headers: { Cookie: cookie },
      form: { csrf: csrfToken, email: user.email, password: TEST_PASSWORD, redirect },
    })
    expect(signedIn).toMatchObject({ status: 302, location: '/dashboard' })
    const token = sessionCookieOf(signedIn.headers) ?? ''
    remember(signedIn.headers)

    const dashboard = await callThroughMiddleware(
      dashboardLoader,
      { url: '/dashboard', headers: { Cookie: cookie } },
      'GET',
    )
    expect(dashboard.status).toBe(200)
    expect((dashboard.body as DashboardData).user.id).toBe(user.id)

    // The header's Sign Out form carries the root's token, now bound to the session.
    const root = await callThroughMiddleware(
      rootLoader,
      { url: '/dashboard', headers: { Cookie: cookie } },
      'GET',
    )
    const signOutToken = (root.body as { csrfToken: string }).csrfToken
    const signedOut = await callThroughMiddleware(logoutAction, {
      url: '/logout',
      headers: { Cookie: cookie },
      form: { csrf: signOutToken },
    })
    expect(signedOut).toMatchObject({ status: 302, location: '/dashboard' })
    remember(signedOut.headers)
    expect(cookie).not.toContain('tw_session')
    expect(await findSession(db, token)).toBeNull()

    const again = await callThroughMiddleware(
      dashboardLoader,
      { url: '/dashboard', headers: { Cookie: cookie } },
      'GET',
    )
    expect(again).toMatchObject({ status: 302, location: '/login?redirect=%2Fdashboard' })
  })
})
