import type { RouteConfigEntry } from '@react-router/dev/routes'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CSRF_FIELD, issueCsrfToken } from '~/auth/csrf.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { ADMIN_SESSION_COOKIE } from '~/auth/sign-in-as.server'
import { database } from '~/db/client.server'
import { adminAudit, emailOutbox, jobs, purchases, repositoryInvitations, sessions, users } from '~/db/schema'
import { resetEnvForTests } from '~/env.server'
import { loader as rootLoader } from '~/root'
import routes from '~/routes'
import { action as loginAction } from '~/routes/auth/login'
import { loader as settingsLoader } from '~/routes/settings/index'
import { ACCOUNT_DISABLED, findSession } from '~/services/sessions.server'
import { hashToken } from '~/utils/crypto.server'
import {
  callThroughMiddleware,
  clientContext,
  sessionCookieOf,
  signedInBrowser,
  type TestBrowser,
} from '../../../tests/helpers/auth'
import { createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { renderRoute, textContent } from '../../../tests/helpers/html'
import { callAction, callLoader } from '../../../tests/helpers/route'
import AdminPerson, { loader as personLoader } from './person'

/**
 * The admin console through real Requests and the root middleware: a 404 for everyone but a
 * verified admin in their own session, on every admin URL and every action (table-driven over
 * app/routes.ts, so a new admin route is covered the day it is added); each action leaves an
 * audit row; "sign in as" shows its banner, is audited, is seen by the person, and stops.
 */

const db = database()
const ADMIN = 'root@example.test'
const UNVERIFIED_ADMIN = 'pending-root@example.test'
/** Where every request of these tests comes from, as the audit log records it. */
const ADMIN_ADDRESS = '192.0.2.7'

beforeAll(() => {
  process.env.ADMIN_EMAILS = `${ADMIN}, ${UNVERIFIED_ADMIN.toUpperCase()}`
  resetEnvForTests()
})
afterAll(() => {
  delete process.env.ADMIN_EMAILS
  resetEnvForTests()
})

type Module = { loader?: (args: never) => unknown; action?: (args: never) => unknown }
const modules = import.meta.glob<Module>(['./*.ts', './*.tsx', '!./*.test.ts'])

/** Every admin route of app/routes.ts with its module, and a URL for it. */
async function adminRoutes() {
  const found: { url: string; module: Module }[] = []
  for (const entry of (await routes) as RouteConfigEntry[]) {
    if (!entry.path?.startsWith('admin')) continue
    const load = modules[`./${entry.file.replace('routes/admin/', '')}`]
    if (!load) throw new Error(`No module for ${entry.file}`)
    found.push({ url: `/${entry.path.replace(':userId', 'someone')}`, module: await load() })
  }
  return found
}

/** Every intent a console form sends, with the fields it carries. */
const INTENTS: Record<string, string>[] = [
  { intent: 'resend-verification' },
  { intent: 'end-sessions' },
  { intent: 'disable' },
  { intent: 'enable' },
  { intent: 'sign-in-as' },
  { intent: 'retry-invitation', userId: 'someone' },
  { intent: 'retry-job', id: 'job' },
  { intent: 'discard-job', id: 'job' },
  { intent: 'retry-email', id: 'email' },
  { intent: 'discard-email', id: 'email' },
]

async function adminBrowser() {
  const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
  const row = admin ?? (await createUser(db, { email: ADMIN, name: 'Root' }))
  return { admin: row, browser: await signedInBrowser(db, row.id) }
}

const auditCount = async () => (await db.select().from(adminAudit)).length

function get(url: string, browser: TestBrowser | null, module: Module) {
  if (!module.loader) return null
  return callThroughMiddleware(
    module.loader,
    {
      url,
      params: { userId: url.split('/')[3] ?? '' },
      headers: browser ? { Cookie: browser.cookie } : {},
    },
    'GET',
  )
}

function post(url: string, browser: TestBrowser | null, module: Module, fields: Record<string, string>) {
  if (!module.action) return null
  return callThroughMiddleware(module.action, {
    url,
    params: { userId: url.split('/')[3] ?? '' },
    headers: browser
      ? { Cookie: browser.cookie, Origin: 'http://localhost' }
      : { Origin: 'http://localhost' },
    form: browser ? browser.form(fields) : fields,
    context: clientContext(ADMIN_ADDRESS),
  })
}

describe('who gets a 404', () => {
  test('everyone but a verified admin in their own session, on every admin URL and action', async () => {
    const person = await createUser(db, { name: 'Customer' })
    const unverifiedAdmin = await createUser(db, { email: UNVERIFIED_ADMIN, emailVerifiedAt: null })
    const { admin, browser: adminOwn } = await adminBrowser()
    const supportSession = {
      ...(await signedInBrowser(db, person.id)),
    }
    await db
      .update(sessions)
      .set({ impersonatorId: admin.id })
      .where(eq(sessions.id, supportSession.session.id))
    const outsiders: [string, TestBrowser | null][] = [
      ['a visitor', null],
      ['a signed-in person', await signedInBrowser(db, person.id)],
      ['an admin address not verified', await signedInBrowser(db, unverifiedAdmin.id)],
      ['an admin signed in as someone', supportSession],
    ]
    const table = await adminRoutes()
    expect(table.map((route) => route.url)).toEqual(
      expect.arrayContaining([
        '/admin',
        '/admin/people/someone',
        '/admin/purchases',
        '/admin/workspaces',
        '/admin/queues',
        '/admin/audit',
      ]),
    )
    const before = await auditCount()

    for (const { url, module } of table) {
      for (const [who, browser] of outsiders) {
        const page = await get(url, browser, module)
        if (page) expect({ who, url, status: page.status }).toEqual({ who, url, status: 404 })
        // The stop button answers only a support session; every other way in is closed to all of them.
        if (url === '/admin/sign-in-as/stop' && who === 'an admin signed in as someone') continue
        for (const fields of INTENTS) {
          const answer = await post(url, browser, module, fields)
          if (!answer) continue
          // A visitor has no CSRF token: refused before the action, with nothing learned either.
          const expected = browser ? 404 : 403
          expect({ who, url, intent: fields.intent, status: answer.status }).toEqual({
            who,
            url,
            intent: fields.intent,
            status: expected,
          })
        }
      }
    }
    expect(await auditCount()).toBe(before)
    const [untouched] = await db.select().from(users).where(eq(users.id, person.id))
    expect(untouched?.disabledAt).toBeNull()

    // The admin in their own session is let in everywhere but the stop button.
    for (const { url, module } of table) {
      const page = await get(url, adminOwn, module)
      if (!page) continue
      const expected = url === '/admin/sign-in-as/stop' ? 404 : url.includes('someone') ? 404 : 200
      expect({ url, status: page.status }).toEqual({ url, status: expected })
    }
  })
})

describe('every action leaves an audit row', () => {
  async function world() {
    const { admin, browser } = await adminBrowser()
    const person = await createUser(db, { name: 'Grace Customer', emailVerifiedAt: null })
    const table = Object.fromEntries((await adminRoutes()).map((route) => [route.url, route.module]))
    const act = (url: string, fields: Record<string, string>) => {
      const module = table[url.replace(person.id, 'someone')]
      if (!module) throw new Error(`no route ${url}`)
      const answer = post(url, browser, module, fields)
      if (!answer) throw new Error(`no action at ${url}`)
      return answer
    }
    const rows = async () =>
      (await db.select().from(adminAudit).where(eq(adminAudit.adminId, admin.id))).map((row) => ({
        action: row.action,
        target: row.target,
        targetUserId: row.targetUserId,
        adminEmail: row.adminEmail,
        ip: row.ip,
      }))
    return { admin, browser, person, act, rows }
  }

  test('on a person: resend, end sessions, disable, enable; who, what, on whom, from where', async () => {
    const { person, act, rows } = await world()
    const page = `/admin/people/${person.id}`
    const personal = await signedInBrowser(db, person.id)
    const before = (await rows()).length

    for (const intent of ['resend-verification', 'end-sessions', 'disable', 'enable']) {
      const answer = await act(page, { intent })
      expect({ intent, status: answer.status, location: answer.location }).toEqual({
        intent,
        status: 302,
        location: page,
      })
    }
    const written = (await rows()).slice(before)
    expect(written.map((row) => row.action).sort()).toEqual(
      ['disable', 'enable', 'end-sessions', 'resend-verification'].sort(),
    )
    for (const row of written) {
      expect(row).toMatchObject({
        target: person.email,
        targetUserId: person.id,
        adminEmail: ADMIN,
        ip: ADMIN_ADDRESS,
      })
    }
    expect(await findSession(db, personal.session.token)).toBeNull()
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, person.email))
    expect(mail?.subject).toMatch(/verif/i)

    // A refused action (already enabled) says why and writes nothing.
    const refused = await act(page, { intent: 'enable' })
    expect(refused.status).toBe(409)
    expect((await rows()).length).toBe(before + 4)
  })

  test('on the queues and a purchase: retry and discard a failed job and e-mail, retry an invitation', async () => {
    const { person, act, rows } = await world()
    const failed = { status: 'failed' as const, attempts: 5, lastError: 'SMTP said no' }
    const [jobA, jobB] = ['a', 'b'].map((key) => `job-${key}-${person.id}`)
    for (const id of [jobA, jobB]) {
      await db.insert(jobs).values({ id, type: 'due-reminders', payload: {}, ...failed })
    }
    const [mailA, mailB] = await db
      .insert(emailOutbox)
      .values([1, 2].map(() => ({ to: person.email, subject: 's', html: 'h', text: 't', ...failed })))
      .returning()
    await db.insert(purchases).values({
      userId: person.id,
      email: person.email,
      tier: 'tier1',
      kind: 'lifetime',
      amountCents: 9900,
      currency: 'usd',
      stripeCheckoutSessionId: `cs_${person.id}`,
    })
    await db
      .insert(repositoryInvitations)
      .values({ userId: person.id, status: 'needs-login', lastError: 'no login' })

    const before = (await rows()).length
    const answers = [
      await act('/admin/queues', { intent: 'retry-job', id: jobA as string }),
      await act('/admin/queues', { intent: 'discard-job', id: jobB as string }),
      await act('/admin/queues', { intent: 'retry-email', id: mailA?.id as string }),
      await act('/admin/queues', { intent: 'discard-email', id: mailB?.id as string }),
      await act('/admin/purchases', { intent: 'retry-invitation', userId: person.id }),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302])
    expect((await rows()).map((row) => [row.action, row.target]).slice(-5)).toEqual([
      ['retry-job', jobA],
      ['discard-job', jobB],
      ['retry-email', mailA?.id],
      ['discard-email', mailB?.id],
      ['retry-invitation', person.email],
    ])
    const [retried] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.id, jobA as string))
    expect(retried).toMatchObject({ status: 'pending', attempts: 0, lastError: null })
    expect(
      await db
        .select()
        .from(jobs)
        .where(eq(jobs.id, jobB as string)),
    ).toEqual([])
    const [invitation] = await db
      .select()
      .from(repositoryInvitations)
      .where(eq(repositoryInvitations.userId, person.id))
    expect(invitation?.status).toBe('pending')

    // Done once, an item is gone from the failed list: a second press is a 404, and not audited.
    const again = await act('/admin/queues', { intent: 'discard-job', id: jobB as string })
    expect(again.status).toBe(404)
    expect((await rows()).length).toBe(before + answers.length)
  })

  test('the log cannot be edited, not even by the database’s own users', async () => {
    const { person, act } = await world()
    await act(`/admin/people/${person.id}`, { intent: 'end-sessions' })
    await expect(db.update(adminAudit).set({ action: 'nothing' })).rejects.toThrow()
    await expect(db.delete(adminAudit)).rejects.toThrow()
    expect((await db.select().from(adminAudit)).every((row) => row.action !== 'nothing')).toBe(true)
  })
})

describe('sign in as', () => {
  test('shows the banner, is audited, is seen by the person, and stops back to the admin', async () => {
    const { admin, browser } = await adminBrowser()
    const person = await createUser(db, { name: 'Helped Person' })
    const table = Object.fromEntries((await adminRoutes()).map((route) => [route.url, route.module]))
    const personModule = table['/admin/people/someone'] as Module
    const started = await post(`/admin/people/${person.id}`, browser, personModule, { intent: 'sign-in-as' })
    expect(started?.status).toBe(302)
    expect(started?.location).toBe('/dashboard')
    const supportToken = sessionCookieOf(started?.headers ?? new Headers()) as string
    const support = await findSession(db, supportToken)
    expect(support).toMatchObject({ user: { id: person.id }, impersonatorId: admin.id })
    const keptAside = started?.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${ADMIN_SESSION_COOKIE}=`))
    expect(keptAside).toContain(encodeURIComponent(browser.session.token))

    // The banner: the root loader says so on every page.
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(supportToken)}; ${keptAside?.split(';')[0]}`
    const root = await callLoader(rootLoader, { url: '/dashboard', headers: { Cookie: cookie } })
    expect(root.data).toMatchObject({ isSupportSession: true, user: { id: person.id } })
    const own = await callLoader(rootLoader, { url: '/dashboard', headers: { Cookie: browser.cookie } })
    expect(own.data).toMatchObject({ isSupportSession: false })

    // The audit row, and the person's own sessions list shows it, now and afterwards.
    const [row] = await db.select().from(adminAudit).where(eq(adminAudit.targetUserId, person.id))
    expect(row).toMatchObject({
      action: 'sign-in-as',
      adminEmail: ADMIN,
      target: person.email,
      ip: ADMIN_ADDRESS,
    })
    const theirs = await signedInBrowser(db, person.id)
    const settings = await callLoader(settingsLoader, {
      url: '/settings',
      headers: { Cookie: theirs.cookie },
    })
    expect(settings.data.sessions).toContainEqual(expect.objectContaining({ isSupport: true }))
    expect(settings.data.supportSignIns).toHaveLength(1)

    // Stop: the support session ends, the admin's own comes back, and that is audited too.
    const stopModule = table['/admin/sign-in-as/stop'] as Module
    // The banner's form carries the support session's CSRF token, as any page of it would.
    const stopped = await callThroughMiddleware(stopModule.action as never, {
      url: '/admin/sign-in-as/stop',
      headers: { Cookie: cookie, Origin: 'http://localhost' },
      form: { [CSRF_FIELD]: issueCsrfToken(`session:${hashToken(supportToken)}`) },
    })
    expect(stopped.status).toBe(302)
    expect(stopped.location).toBe(`/admin/people/${person.id}`)
    expect(sessionCookieOf(stopped.headers)).toBe(browser.session.token)
    expect(await findSession(db, supportToken)).toBeNull()
    const after = await callLoader(settingsLoader, { url: '/settings', headers: { Cookie: theirs.cookie } })
    expect(after.data.sessions.some((session) => session.isSupport)).toBe(false)
    expect(after.data.supportSignIns).toHaveLength(1)
    const actions = await db.select().from(adminAudit).where(eq(adminAudit.targetUserId, person.id))
    expect(actions.map((each) => each.action).sort()).toEqual(['sign-in-as', 'stop-sign-in-as'])
  })

  test('is refused on another admin, even one whose address is not verified yet', async () => {
    const other = await createUser(db, { email: 'other-root@example.test', emailVerifiedAt: null })
    // Before any token is issued: without SESSION_SECRET, a new parse draws a new secret.
    process.env.ADMIN_EMAILS = `${ADMIN}, ${UNVERIFIED_ADMIN}, ${other.email}`
    resetEnvForTests()
    const { browser } = await adminBrowser()
    const table = Object.fromEntries((await adminRoutes()).map((route) => [route.url, route.module]))
    const refused = await post(
      `/admin/people/${other.id}`,
      browser,
      table['/admin/people/someone'] as Module,
      {
        intent: 'sign-in-as',
      },
    )
    expect(refused?.status).toBe(403)
    expect(refused?.body).toEqual({ refusal: 'Support sign-in is not available for another admin.' })
    expect(await db.select().from(sessions).where(eq(sessions.userId, other.id))).toEqual([])
    expect(await db.select().from(adminAudit).where(eq(adminAudit.targetUserId, other.id))).toEqual([])
  })
})

describe('a disabled account', () => {
  test('cannot sign in with the right password, and is told why', async () => {
    const person = await createUser(db)
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, person.id))
    const answer = await callAction(loginAction, {
      url: '/login',
      form: { email: person.email, password: TEST_PASSWORD },
      context: clientContext(),
    })
    expect(answer.status).toBe(403)
    expect(JSON.stringify(answer.data)).toContain(ACCOUNT_DISABLED)
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
    expect(await db.select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([])
  })
})

describe('a person’s page', () => {
  test('their status and the Admin badge beside it read as separate words', async () => {
    const { admin, browser } = await adminBrowser()
    const url = `/admin/people/${admin.id}`
    const page = await get(url, browser, { loader: personLoader as Module['loader'] })
    expect(page?.status).toBe(200)
    const html = renderRoute(
      { id: 'routes/admin/person', path: url, Component: AdminPerson },
      { loaderData: page?.body },
    )
    expect(textContent(html)).toContain('Active Admin')
  })
})
