import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { jobs, workspaceMembers, workspaces } from '~/db/schema'
import type { WorkspaceRole } from '~/domain/workspaces'
import { WORKSPACE_DELETION_JOB } from '~/services/workspaces/deletion.server'
import {
  CONFIRM_NAME_MESSAGE,
  MANAGERS_ONLY,
  OWNER_CANNOT_LEAVE,
  SLUG_TAKEN,
} from '~/services/workspaces/workspace-schemas'
import { createWorkspace } from '~/services/workspaces/workspaces.server'
import { readToast } from '~/toast.server'
import { callThroughMiddleware, signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { buttons, links, renderRoute, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import WorkspaceSettings, { action, loader } from './settings'

/**
 * /workspaces/<slug>/settings: what each role is shown and may post (hidden `intent` field, the
 * session cookie, the CSRF field), what each change leaves in the database, and a 404 for a
 * workspace the person is not in.
 */

type Reply = { intent?: string | null; result?: { error?: Record<string, string[] | null> } | null }
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

let slugs = 0
const nextSlug = () => `studio-${++slugs}`

const db = database()

/** A person signed in through a real session, and how they load and post the page of `slug`. */
async function visitorAs(user: { id: string; email: string }) {
  const browser = await signedInBrowser(db, user.id)
  const url = (slug: string) => `/workspaces/${slug}/settings`
  return {
    user,
    actor: { id: user.id, email: user.email, emailVerified: true },
    browser,
    page: (slug: string) =>
      callLoader(loader, { url: url(slug), params: { slug }, headers: { Cookie: browser.cookie } }),
    post: (slug: string, fields: Record<string, string>) =>
      callAction(action, {
        url: url(slug),
        params: { slug },
        headers: { Cookie: browser.cookie },
        form: browser.form(fields),
      }),
  }
}

/** A team "Studio" and a signed-in person in each role asked for. */
async function studio(roles: WorkspaceRole[] = []) {
  const owner = await visitorAs(await createUser(db, { name: 'Olive Owner' }))
  const workspace = await createWorkspace(db, owner.actor, { name: 'Studio', slug: nextSlug() })
  const others = []
  for (const role of roles) {
    const user = await createUser(db, { name: `${role} person` })
    await db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: user.id, role })
    others.push(await visitorAs(user))
  }
  return { owner, workspace, others }
}

function render(loaderData: unknown, actionData?: unknown) {
  return renderRoute(
    { id: 'routes/workspaces/settings', path: '/workspaces/x/settings', Component: WorkspaceSettings },
    { loaderData, actionData },
  )
}

async function rolesOf(workspaceId: string) {
  const rows = await db
    .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId))
  return Object.fromEntries(rows.map((row) => [row.userId, row.role]))
}

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/workspaces/x/settings', params: { slug: 'x' } })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fworkspaces%2Fx%2Fsettings' })
  })

  test('an unknown workspace and one the person is not in are the same 404', async () => {
    const { workspace } = await studio()
    const stranger = await visitorAs(await createUser(db))
    const foreign = await stranger.page(workspace.slug)
    const unknown = await stranger.page('no-such-workspace')
    expect(foreign).toMatchObject({ status: 404, thrown: true })
    expect(unknown).toMatchObject({ status: 404, thrown: true })
    expect(foreign.data).toEqual(unknown.data)
  })

  test('its owner: rename, transfer (none to hand it to yet), delete; no leave', async () => {
    const { owner, workspace } = await studio(['member'])
    const answer = await owner.page(workspace.slug)
    expect(answer.data.admins).toEqual([])
    const html = render(answer.data)
    const text = visibleText(html)
    expect(buttons(html)).toEqual(['Save', 'Delete workspace'])
    expect(text).toContain('There is no admin to hand it to yet.')
    expect(text).toContain(OWNER_CANNOT_LEAVE)
    expect(links(html)).toContainEqual({
      text: 'members page',
      href: `/workspaces/${workspace.slug}/members`,
    })
  })

  test('its owner with an admin: a select of its admins', async () => {
    const { owner, workspace, others } = await studio(['admin', 'member'])
    const answer = await owner.page(workspace.slug)
    expect(answer.data.admins.map((admin) => admin.userId)).toEqual([others[0]?.user.id])
    const html = render(answer.data)
    expect(buttons(html)).toEqual(['Save', 'Transfer ownership', 'Delete workspace'])
    expect(html).toContain(`<option value="${others[0]?.user.id}">admin person`)
  })

  test('a member: leave, and who may rename it', async () => {
    const { workspace, others } = await studio(['member'])
    const html = render((await others[0]?.page(workspace.slug))?.data)
    expect(buttons(html)).toEqual(['Leave workspace'])
    expect(visibleText(html)).toContain(MANAGERS_ONLY)
  })

  test('a personal workspace: only rename, and why', async () => {
    const me = await visitorAs(await createUser(db))
    const [personal] = await db.select().from(workspaces).where(eq(workspaces.id, me.user.id))
    const html = render((await me.page(personal?.slug ?? '')).data)
    expect(buttons(html)).toEqual(['Save'])
    expect(visibleText(html)).toContain('A personal workspace cannot be shared, left or deleted.')
  })
})

describe('rename', () => {
  test('an admin renames it and moves its address; the page follows the new address', async () => {
    const { workspace, others } = await studio(['admin'])
    const admin = others[0] as Awaited<ReturnType<typeof visitorAs>>
    const moved = nextSlug()
    const answer = await admin.post(workspace.slug, { intent: 'rename', name: 'Studio Two', slug: moved })
    expect(answer).toMatchObject({ status: 302, location: `/workspaces/${moved}/settings` })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Workspace renamed' })
    const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspace.id))
    expect(row).toMatchObject({ name: 'Studio Two', slug: moved })
  })

  test('a taken address answers 400 at the address; a bad one on its field; nothing changes', async () => {
    const { owner, workspace } = await studio()
    const other = await createWorkspace(db, owner.actor, { name: 'Other', slug: nextSlug() })
    const taken = await owner.post(workspace.slug, { intent: 'rename', name: 'Studio', slug: other.slug })
    expect(taken.status).toBe(400)
    expect(taken.data).toMatchObject({ intent: 'rename' })
    expect(errorsOf(taken.data)).toEqual([SLUG_TAKEN])
    const bad = await owner.post(workspace.slug, { intent: 'rename', name: 'Studio', slug: 'Studio_1' })
    expect(errorsOf(bad.data, 'slug')).toEqual([
      'Address may hold only lower-case letters, digits and hyphens',
    ])
    const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspace.id))
    expect(row?.slug).toBe(workspace.slug)
  })

  test('a member is refused with 403 and whose change it is', async () => {
    const { workspace, others } = await studio(['member'])
    const answer = await others[0]?.post(workspace.slug, { intent: 'rename', name: 'Mine', slug: nextSlug() })
    expect(answer?.status).toBe(403)
    expect(errorsOf(answer?.data)).toEqual([MANAGERS_ONLY])
  })
})

describe('leave, transfer and delete', () => {
  test('a member leaves and lands on /workspaces', async () => {
    const { owner, workspace, others } = await studio(['member'])
    const answer = await others[0]?.post(workspace.slug, { intent: 'leave' })
    expect(answer).toMatchObject({ status: 302, location: '/workspaces' })
    expect(await toastOf(answer?.headers ?? new Headers())).toMatchObject({ title: 'You left Studio' })
    expect(await rolesOf(workspace.id)).toEqual({ [owner.user.id]: 'owner' })
  })

  test('the owner cannot leave: 403 with what to do first', async () => {
    const { owner, workspace } = await studio()
    const answer = await owner.post(workspace.slug, { intent: 'leave' })
    expect(answer.status).toBe(403)
    expect(errorsOf(answer.data)).toEqual([OWNER_CANNOT_LEAVE])
  })

  test('the owner hands it to an admin and stays as an admin', async () => {
    const { owner, workspace, others } = await studio(['admin'])
    const admin = others[0] as Awaited<ReturnType<typeof visitorAs>>
    const answer = await owner.post(workspace.slug, { intent: 'transfer', toUserId: admin.user.id })
    expect(answer).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/settings` })
    expect(await rolesOf(workspace.id)).toEqual({ [owner.user.id]: 'admin', [admin.user.id]: 'owner' })
    const missing = await admin.post(workspace.slug, { intent: 'transfer' })
    expect(errorsOf(missing.data, 'toUserId')).toEqual(['Choose an admin'])
  })

  test('deleting needs the exact name; then it is gone for everyone and its tasks are queued', async () => {
    const { owner, workspace, others } = await studio(['member'])
    const wrong = await owner.post(workspace.slug, { intent: 'delete', confirmName: 'studio' })
    expect(wrong.status).toBe(400)
    expect(errorsOf(wrong.data)).toEqual([CONFIRM_NAME_MESSAGE])
    expect(Object.keys(await rolesOf(workspace.id))).toHaveLength(2)

    const answer = await owner.post(workspace.slug, { intent: 'delete', confirmName: 'Studio' })
    expect(answer).toMatchObject({ status: 302, location: '/workspaces' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Studio was deleted' })
    expect(await rolesOf(workspace.id)).toEqual({})
    expect(await db.select().from(jobs).where(eq(jobs.type, WORKSPACE_DELETION_JOB))).toHaveLength(1)
    expect(await others[0]?.page(workspace.slug)).toMatchObject({ status: 404 })
  })

  test('posting to a workspace one is not in answers 404 and changes nothing', async () => {
    const { workspace } = await studio()
    const stranger = await visitorAs(await createUser(db))
    const posts: Record<string, string>[] = [
      { intent: 'rename', name: 'Taken over', slug: nextSlug() },
      { intent: 'leave' },
      { intent: 'delete', confirmName: 'Studio' },
    ]
    for (const fields of posts) {
      const answer = await stranger.post(workspace.slug, fields)
      expect(answer.status).toBe(404)
    }
    const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspace.id))
    expect(row).toMatchObject({ name: 'Studio', slug: workspace.slug })
  })

  test('without its CSRF token the middleware refuses before the action runs', async () => {
    const { owner, workspace } = await studio()
    const answer = await callThroughMiddleware(action, {
      url: `/workspaces/${workspace.slug}/settings`,
      params: { slug: workspace.slug },
      headers: { Cookie: owner.browser.cookie },
      form: { intent: 'delete', confirmName: 'Studio' },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    expect(Object.keys(await rolesOf(workspace.id))).toHaveLength(1)
  })
})
