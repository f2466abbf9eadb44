import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { action as apiAction, loader as apiLoader } from '~/routes/api/auth'
import { action as loginAction, loader as loginLoader } from '~/routes/auth/login'
import { action as signupAction, loader as signupLoader } from '~/routes/auth/signup'
import { action as verificationAction } from '~/routes/email/request-verification'
import { action as themeAction } from '~/routes/resources/theme'
import { action as taskAction } from '~/routes/tasks/actions'
import { action as commentAction } from '~/routes/tasks/comments'
import { anonymousBrowser, callThroughMiddleware, signedInBrowser } from '../helpers/auth'
import { createTask, createUser, TEST_PASSWORD } from '../helpers/factories'
import { expectOnSite, ODD_LOCAL_TARGETS, OFF_SITE_TARGETS } from '../helpers/redirect-attacks'
import { TEST_ORIGIN } from '../helpers/route'

/**
 * Every route that takes a return address, through the root middleware as the server runs it,
 * with every known way of spelling another site: the browser is always sent somewhere on this
 * site, and a spelling no Location header can carry is never a 500. (The OAuth round trip is in
 * oauth.test.ts, with the local provider it needs.)
 */

const EVERY_TARGET = [...OFF_SITE_TARGETS, ...ODD_LOCAL_TARGETS]

async function signedIn() {
  const db = database()
  const user = await createUser(db)
  return { user, browser: await signedInBrowser(db, user.id) }
}

describe.each(['/login', '/signup'] as const)('GET %s?redirect= for someone signed in', (path) => {
  const loader = path === '/login' ? loginLoader : signupLoader

  test.each(EVERY_TARGET)('%s: sent on, on this site', async (_label, target) => {
    const { browser } = await signedIn()
    const answer = await callThroughMiddleware(
      loader,
      { url: `${path}?${new URLSearchParams({ redirect: target })}`, headers: browser.headers() },
      'GET',
    )
    expect(answer.status).toBe(302)
    expectOnSite(answer.location)
  })

  test.each(OFF_SITE_TARGETS)('%s: a visitor’s form gets no return address', async (_label, target) => {
    const answer = await callThroughMiddleware(
      loader,
      { url: `${path}?${new URLSearchParams({ redirect: target })}` },
      'GET',
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ redirect: '' })
  })
})

describe('POST /login: after signing in', () => {
  test.each(EVERY_TARGET)('%s: on this site', async (_label, target) => {
    const user = await createUser(database())
    const browser = anonymousBrowser()
    const answer = await callThroughMiddleware(loginAction, {
      url: '/login',
      headers: browser.headers({ withCsrf: false }),
      form: browser.form({ email: user.email, password: TEST_PASSWORD, redirect: target }),
    })
    expect(answer.status).toBe(302)
    expectOnSite(answer.location)
  })
})

describe('POST /signup: after creating the account', () => {
  // Sign-up hashes the password for real (~100 ms): a few families stand for the rest, which
  // share the code path with /login above.
  test.each(
    EVERY_TARGET.filter(([label]) =>
      /tab|dot segment before the second|header injection|fullwidth/.test(label),
    ),
  )('%s: on this site', async (_label, target) => {
    const browser = anonymousBrowser()
    const answer = await callThroughMiddleware(signupAction, {
      url: '/signup',
      headers: browser.headers({ withCsrf: false }),
      form: browser.form({
        name: 'New Person',
        email: `new-${crypto.randomUUID()}@example.test`,
        password: 'a long enough password',
        redirect: target,
      }),
    })
    expect(answer.status).toBe(302)
    expectOnSite(answer.location)
  })
})

describe('better-auth endpoints', () => {
  test.each(EVERY_TARGET)(
    'sign-in/email callbackURL %s: the url it answers is on this site',
    async (_label, target) => {
      const user = await createUser(database())
      const browser = anonymousBrowser()
      const answer = await callThroughMiddleware(apiAction, {
        url: '/api/auth/sign-in/email',
        params: { '*': 'sign-in/email' },
        headers: browser.headers(),
        json: { email: user.email, password: TEST_PASSWORD, callbackURL: target },
      })
      expect(answer.status).toBe(200)
      const { url, redirect } = answer.body as { url?: string; redirect: boolean }
      expect(redirect).toBe(url !== undefined)
      if (url !== undefined) expectOnSite(url)
    },
  )

  test.each(EVERY_TARGET)(
    'verify-email with any token, callbackURL %s: on this site',
    async (_label, target) => {
      const answer = await callThroughMiddleware(
        apiLoader,
        {
          url: `/api/auth/verify-email?${new URLSearchParams({ token: 'x', callbackURL: target })}`,
          params: { '*': 'verify-email' },
        },
        'GET',
      )
      expect(answer.status).toBeLessThan(500)
      // It builds an absolute URL from the request's own origin.
      if (answer.location !== null) expect(new URL(answer.location).origin).toBe(TEST_ORIGIN)
      if (answer.location !== null) expectOnSite(new URL(answer.location).pathname)
    },
  )
})

describe('POST /resources/theme, which any site may post to', () => {
  test.each(EVERY_TARGET)('redirectTo %s: on this site', async (_label, target) => {
    const answer = await callThroughMiddleware(themeAction, {
      url: '/resources/theme',
      headers: { Origin: 'https://evil.example' },
      form: { theme: 'dark', redirectTo: target },
    })
    expect(answer.status).toBe(302)
    expectOnSite(answer.location)
  })
})

describe('the task and comment forms', () => {
  const taskForms = [
    [
      'task/actions',
      taskAction,
      (taskId: string) => ({ intent: 'set-status', taskId, status: 'In Progress' }),
    ],
    ['task/comments', commentAction, (taskId: string) => ({ intent: 'add', taskId, content: 'A comment' })],
  ] as const

  describe.each(taskForms)('%s', (path, action, fields) => {
    test.each(EVERY_TARGET)('redirectTo %s: on this site', async (_label, target) => {
      const { user, browser } = await signedIn()
      const task = await createTask(database(), { userId: user.id })
      const answer = await callThroughMiddleware(action, {
        url: `/${path}`,
        headers: browser.headers(),
        form: { ...fields(task.id), redirectTo: target },
      })
      expect(answer.status).toBe(302)
      expectOnSite(answer.location)
    })
  })

  test.each(EVERY_TARGET)(
    'email/request-verification redirectTo %s: on this site',
    async (_label, target) => {
      const db = database()
      const user = await createUser(db, { emailVerifiedAt: null })
      const browser = await signedInBrowser(db, user.id)
      const answer = await callThroughMiddleware(verificationAction, {
        url: '/email/request-verification',
        headers: browser.headers(),
        form: { redirectTo: target },
      })
      expect(answer.status).toBe(302)
      expectOnSite(answer.location)
    },
  )
})
