import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import { listWorkspaces } from '~/services/workspaces/reads.server'
import { SLUG_TAKEN } from '~/services/workspaces/workspace-schemas'
import { createWorkspace } from '~/services/workspaces/workspaces.server'
import { readToast } from '~/toast.server'
import { callThroughMiddleware, signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { links, renderRoute, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import Workspaces, { action, loader } from './index'

/** /workspaces: the list of one's workspaces and the form that creates one, as a browser posts it. */

type Reply = { result?: { error?: Record<string, string[] | null> } | null }
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

async function signedIn() {
  const db = database()
  const user = await createUser(db, { name: 'Ada' })
  const browser = await signedInBrowser(db, user.id)
  const actor = { id: user.id, email: user.email, emailVerified: true }
  const post = (fields: Record<string, string>) =>
    callAction(action, {
      url: '/workspaces',
      headers: { Cookie: browser.cookie },
      form: browser.form(fields),
    })
  const page = () => callLoader(loader, { url: '/workspaces', headers: { Cookie: browser.cookie } })
  return { db, user, actor, browser, post, page }
}

function render(loaderData: unknown, actionData?: unknown) {
  return renderRoute(
    { id: 'routes/workspaces/index', path: '/workspaces', Component: Workspaces },
    {
      loaderData,
      actionData,
    },
  )
}

let slugs = 0
const slug = () => `crew-${++slugs}`

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/workspaces' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fworkspaces' })
  })

  test('someone in no team yet sees their personal workspace and a line saying how to get into one', async () => {
    const { page } = await signedIn()
    const answer = await page()
    expect(answer.data.workspaces).toEqual([expect.objectContaining({ name: 'Personal', isPersonal: true })])
    const text = visibleText(render(answer.data))
    expect(text).toContain('You are not in a team yet.')
    expect(text).toContain('Personal')
    expect(text).toContain('Owner')
    expect(text).toContain('1 member')
  })

  test('lists each workspace with its role, its members count and links to its members and settings', async () => {
    const { db, actor, page } = await signedIn()
    const owner = await createUser(db)
    const team = await createWorkspace(
      db,
      { id: owner.id, email: owner.email, emailVerified: true },
      {
        name: 'Design crew',
        slug: slug(),
      },
    )
    await db.insert(workspaceMembers).values({ workspaceId: team.id, userId: actor.id, role: 'admin' })
    const answer = await page()
    const html = render(answer.data)
    expect(visibleText(html)).not.toContain('You are not in a team yet.')
    expect(visibleText(html)).toContain('Design crew Admin 2 members')
    expect(links(html)).toEqual(
      expect.arrayContaining([
        { text: 'Members of Design crew', href: `/workspaces/${team.slug}/members` },
        { text: 'Settings of Design crew', href: `/workspaces/${team.slug}/settings` },
      ]),
    )
  })
})

describe('action', () => {
  test('creates a team workspace owned by the person and comes back with a toast', async () => {
    const { db, actor, post } = await signedIn()
    const address = slug()
    const answer = await post({ name: ' Research ', slug: address })
    expect(answer).toMatchObject({ status: 302, location: '/workspaces' })
    const toast = await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(answer.headers) } }))
    expect(toast.toast).toMatchObject({ type: 'success', title: 'Research created' })
    const [row] = await db.select().from(workspaces).where(eq(workspaces.slug, address))
    expect(row).toMatchObject({ name: 'Research', personalOf: null })
    expect((await listWorkspaces(db, actor)).map((w) => [w.name, w.role])).toEqual([
      ['Personal', 'owner'],
      ['Research', 'owner'],
    ])
  })

  test('an address with capitals or spaces answers 400 on that field; nothing is created', async () => {
    const { db, actor, post } = await signedIn()
    const answer = await post({ name: 'Research', slug: 'My Team' })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data, 'slug')).toEqual([
      'Address may hold only lower-case letters, digits and hyphens',
    ])
    const missing = await post({ name: '', slug: '' })
    expect(errorsOf(missing.data, 'name')).toEqual(['Name is required'])
    expect(errorsOf(missing.data, 'slug')).toEqual(['Address is required'])
    expect(await listWorkspaces(db, actor)).toHaveLength(1)
  })

  test('a taken address answers 400 with the message, which the page shows at the address', async () => {
    const { db, actor, post, page } = await signedIn()
    const address = slug()
    await post({ name: 'First', slug: address })
    const answer = await post({ name: 'Second', slug: address })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data)).toEqual([SLUG_TAKEN])
    expect(await listWorkspaces(db, actor)).toHaveLength(2)
    const html = render((await page()).data, answer.data)
    expect(html).toMatch(/id="create-workspace-slug"[^>]*aria-invalid="true"/)
    expect(visibleText(html)).toContain(SLUG_TAKEN)
  })

  test('without a CSRF token the middleware refuses it before the action runs', async () => {
    const { db, actor, browser } = await signedIn()
    const answer = await callThroughMiddleware(action, {
      url: '/workspaces',
      headers: { Cookie: browser.cookie },
      form: { name: 'Sneaky', slug: slug() },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    expect(await listWorkspaces(db, actor)).toHaveLength(1)
  })

  test('with its token, through the middleware, it creates', async () => {
    const { db, actor, browser } = await signedIn()
    const answer = await callThroughMiddleware(action, {
      url: '/workspaces',
      headers: { Cookie: browser.cookie },
      form: browser.form({ name: 'Through', slug: slug() }),
    })
    expect(answer.status).toBe(302)
    expect(await listWorkspaces(db, actor)).toHaveLength(2)
  })
})
