import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { users, workspaceMembers, workspaces } from '~/db/schema'
import { resetEnvForTests } from '~/env.server'
import { callThroughMiddleware, signedInBrowser, type TestBrowser } from '../../../tests/helpers/auth'
import { createTask, createUser } from '../../../tests/helpers/factories'
import { buttons, links, renderRoute, visibleText } from '../../../tests/helpers/html'
import AdminWorkspaces, { loader } from './workspaces'

/**
 * /admin/workspaces through real Requests and the root middleware: a 404 for anyone but a
 * verified admin (index.test.ts holds every admin URL to that); team workspaces by default, the
 * personal ones with `?all=1`, each with its owner linked to their page, its members and tasks
 * counted, a page at a time; and the page as it renders without JavaScript.
 */

const db = database()
const ADMIN = 'workspaces-root@example.test'

beforeAll(() => {
  process.env.ADMIN_EMAILS = ADMIN
  resetEnvForTests()
})
afterAll(() => {
  delete process.env.ADMIN_EMAILS
  resetEnvForTests()
})

type Page = {
  includePersonal: boolean
  workspaces: {
    id: string
    name: string
    slug: string
    isPersonal: boolean
    ownerId: string | null
    memberCount: number
    taskCount: number
  }[]
  olderHref: string | null
}

function get(url: string, browser: TestBrowser) {
  return callThroughMiddleware(loader as never, { url, headers: { Cookie: browser.cookie } }, 'GET')
}

async function adminBrowser() {
  const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
  return signedInBrowser(db, (admin ?? (await createUser(db, { email: ADMIN }))).id)
}

const render = (loaderData: unknown) =>
  renderRoute(
    { id: 'routes/admin/workspaces', path: '/admin/workspaces', Component: AdminWorkspaces },
    { loaderData },
  )

test('shows nothing to a person who is not an admin', async () => {
  const person = await createUser(db)
  const answer = await get('/admin/workspaces', await signedInBrowser(db, person.id))
  expect(answer.status).toBe(404)
  expect(JSON.stringify(answer.body)).not.toContain('workspaces')
})

test('says so when there is no team workspace yet', async () => {
  const answer = await get('/admin/workspaces', await adminBrowser())
  expect(answer.status).toBe(200)
  const page = answer.body as Page
  expect(page.workspaces).toEqual([])
  expect(visibleText(render(page))).toContain('No team workspaces yet.')
})

test('lists team workspaces with owner, members and tasks; personal ones with ?all=1; pages', async () => {
  const browser = await adminBrowser()
  const ada = await createUser(db, { name: 'Ada Owner' })
  const grace = await createUser(db)
  const [labs] = await db
    .insert(workspaces)
    .values({ name: 'Route Labs', slug: 'route-labs', createdAt: new Date(Date.now() + 60_000) })
    .returning()
  if (!labs) throw new Error('no workspace')
  await db.insert(workspaceMembers).values([
    { workspaceId: labs.id, userId: ada.id, role: 'owner' },
    { workspaceId: labs.id, userId: grace.id, role: 'member' },
  ])
  await createTask(db, { userId: ada.id, workspaceId: labs.id })

  const teams = (await get('/admin/workspaces', browser)).body as Page
  expect(teams.includePersonal).toBe(false)
  expect(teams.workspaces.map((row) => row.name)).toEqual(['Route Labs'])
  expect(teams.workspaces[0]).toMatchObject({
    slug: 'route-labs',
    ownerId: ada.id,
    memberCount: 2,
    taskCount: 1,
  })
  expect(teams.olderHref).toBeNull()

  const html = render(teams)
  const text = visibleText(html)
  for (const shown of ['Route Labs', 'route-labs', 'Owner: Ada Owner', '2 members', '1 task', 'created']) {
    expect(text).toContain(shown)
  }
  expect(links(html)).toContainEqual({ text: 'Ada Owner', href: `/admin/people/${ada.id}` })
  expect(links(html)).toContainEqual({ text: 'Workspaces', href: '/admin/workspaces' })
  expect(buttons(html)).toContain('Show')
  expect(html).toMatch(/<form[^>]*method="get"/)

  const all = (await get('/admin/workspaces?all=1', browser)).body as Page
  expect(all.includePersonal).toBe(true)
  const personal = all.workspaces.find((row) => row.id === ada.id)
  expect(personal).toMatchObject({ isPersonal: true, ownerId: ada.id, memberCount: 1, taskCount: 0 })
  expect(visibleText(render(all))).toContain('Personal')

  // Past a page, "Older workspaces" carries the filter and where the page ended.
  await db.insert(workspaces).values(
    Array.from({ length: 50 }, (_, n) => ({
      name: `Older ${n}`,
      slug: `older-${n}`,
      createdAt: new Date(1_000 + n),
    })),
  )
  const first = (await get('/admin/workspaces', browser)).body as Page
  expect(first.workspaces).toHaveLength(50)
  expect(first.olderHref).toMatch(/^\/admin\/workspaces\?before=\d+&id=/)
  const older = links(render(first)).find((link) => link.text === 'Older workspaces')
  expect(older?.href?.replaceAll('&amp;', '&')).toBe(first.olderHref)
  const second = (await get(first.olderHref as string, browser)).body as Page
  expect(second.workspaces.map((row) => row.name)).toEqual(['Older 0'])
  expect(second.olderHref).toBeNull()
  const withPersonal = (await get('/admin/workspaces?all=1', browser)).body as Page
  expect(withPersonal.olderHref).toMatch(/^\/admin\/workspaces\?all=1&before=/)
})
