import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { prerenderToNodeStream } from 'react-dom/static'
import { createRoutesStub, RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { nonceContext } from '~/context'
import { database } from '~/db/client.server'
import { notifications } from '~/db/schema'
import { listUnreadMentions } from '~/services/notifications.server'
import { toastCookieHeader } from '~/toast.server'
import { signedInBrowser } from '../tests/helpers/auth'
import {
  createComment,
  createMentionNotification,
  createTask,
  createUser,
  shareTask,
} from '../tests/helpers/factories'
import { callLoader, cookieHeaderFrom } from '../tests/helpers/route'
import App, { loader } from './root'

describe('root loader', () => {
  test('renders the theme stored in the cookie', async () => {
    const { data } = await callLoader(loader, { headers: { Cookie: 'other=1; theme=dark' } })
    expect(data.theme).toBe('dark')
  })

  test('falls back to the system preference Chromium sends as a client hint', async () => {
    const { data } = await callLoader(loader, { headers: { 'Sec-CH-Prefers-Color-Scheme': '"dark"' } })
    expect(data.theme).toBe('dark')
  })

  test('the stored choice wins over the system preference', async () => {
    const { data } = await callLoader(loader, {
      headers: { Cookie: 'theme=light', 'Sec-CH-Prefers-Color-Scheme': 'dark' },
    })
    expect(data.theme).toBe('light')
  })

  test('leaves the theme to the browser when it knows nothing, or only nonsense', async () => {
    expect((await callLoader(loader)).data.theme).toBeNull()
    const nonsense = await callLoader(loader, {
      headers: { Cookie: 'theme=purple', 'Sec-CH-Prefers-Color-Scheme': 'sepia' },
    })
    expect(nonsense.data.theme).toBeNull()
  })

  test('hands the client its configuration, the CSP nonce, and no user yet', async () => {
    const context = new RouterContextProvider()
    context.set(nonceContext, 'nonce-123')
    const { status, data } = await callLoader(loader, { context })
    expect(status).toBe(200)
    expect(data.nonce).toBe('nonce-123')
    expect(data.user).toBeNull()
    expect(data.config.baseUrl).toBe('http://localhost:3000')
  })

  test('shows a flash toast once, then clears its cookie', async () => {
    const setCookie = await toastCookieHeader({ type: 'success', title: 'Task created' })
    const cookie = cookieHeaderFrom(new Headers({ 'Set-Cookie': setCookie }))

    const first = await callLoader(loader, { headers: { Cookie: cookie } })
    expect(first.data.toast).toMatchObject({ type: 'success', title: 'Task created' })
    const [cleared] = first.headers.getSetCookie()
    expect(cleared).toMatch(/^tw_toast=;/)
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/)

    // The browser applies the clearing cookie, so the next page has no toast.
    const next = await callLoader(loader, { headers: { Cookie: cookieHeaderFrom(first.headers) } })
    expect(next.data.toast).toBeNull()
  })

  test('ignores a forged toast cookie', async () => {
    const forged = `tw_toast=${btoa(JSON.stringify({ toast: { title: 'You won!' } }))}`
    const { data } = await callLoader(loader, { headers: { Cookie: forged } })
    expect(data.toast).toBeNull()
  })
})

describe('the task modal (?task=)', () => {
  test("carries the discussion and whom the viewer may mention, and reads the viewer's mentions of it", async () => {
    const db = database()
    const owner = await createUser(db, { name: 'Ada Owner' })
    const grace = await createUser(db, { name: 'Grace Shared' })
    const task = await createTask(db, { userId: owner.id })
    await shareTask(db, task.id, [grace.email])
    const comment = await createComment(db, {
      taskId: task.id,
      userId: owner.id,
      content: '@Grace Shared look',
    })
    await createMentionNotification(db, { recipientId: grace.id, taskId: task.id, commentId: comment.id })
    const browser = await signedInBrowser(db, grace.id)

    const page = await callLoader(loader, {
      url: `/task?task=${task.id}`,
      headers: { Cookie: browser.cookie },
    })

    const modal = page.data.taskModal
    if (!modal || !('task' in modal)) throw new Error('expected the modal to load')
    expect(modal.discussion.comments.map((c) => c.content)).toEqual(['@Grace Shared look'])
    expect(modal.discussion.mentionable.map((u) => u.name)).toEqual(['Ada Owner'])
    expect(await listUnreadMentions(db, { id: grace.id, email: grace.email, emailVerified: true })).toEqual(
      [],
    )
  })

  test('a visitor on a public task reads the discussion with nobody to mention', async () => {
    const db = database()
    const task = await createTask(db, { isPublic: true })
    await createComment(db, { taskId: task.id, content: 'Hello world' })
    const page = await callLoader(loader, { url: `/?task=${task.id}` })
    const modal = page.data.taskModal
    if (!modal || !('task' in modal)) throw new Error('expected the modal to load')
    expect(modal.discussion).toMatchObject({ comments: [{ content: 'Hello world' }], mentionable: [] })
  })

  test('a visitor on a public shared task: no address in the loader data or the page', async () => {
    const db = database()
    const owner = await createUser(db, { name: 'Ada Owner' })
    const grace = await createUser(db, { name: 'Grace Shared' })
    const task = await createTask(db, { userId: owner.id, isPublic: true, text: 'Open to all' })
    const addresses = [grace.email, 'invited@example.com']
    await shareTask(db, task.id, addresses)

    const page = await callLoader(loader, { url: `/?task=${task.id}` })
    const serialized = JSON.stringify(page.data)
    for (const address of addresses) expect(serialized).not.toContain(address)
    const modal = page.data.taskModal
    if (!modal || !('task' in modal)) throw new Error('expected the modal to load')
    expect(modal.task).toMatchObject({ sharedWith: [], sharedWithNames: ['Grace Shared'] })

    const Page = createRoutesStub([{ id: 'root', path: '/', Component: App as never }])
    // Rendered to completion, as the server does: the modal is loaded lazily.
    const { prelude } = await prerenderToNodeStream(
      createElement(Page, {
        initialEntries: [`/?task=${task.id}`],
        hydrationData: { loaderData: { root: page.data } },
      }),
    )
    let html = ''
    for await (const chunk of prelude) html += chunk
    expect(html).toContain('Open to all')
    expect(html).toContain('Grace Shared')
    for (const address of addresses) expect(html).not.toContain(address)
  })

  test('after unsharing, the task link of a mention opens nothing and reads nothing', async () => {
    const db = database()
    const owner = await createUser(db, { name: 'Ada Owner' })
    const grace = await createUser(db, { name: 'Grace Shared' })
    const task = await createTask(db, { userId: owner.id, text: 'Was shared' })
    const comment = await createComment(db, {
      taskId: task.id,
      userId: owner.id,
      content: '@Grace Shared psst',
    })
    const notification = await createMentionNotification(db, {
      recipientId: grace.id,
      taskId: task.id,
      commentId: comment.id,
      content: '@Grace Shared psst',
    })
    const browser = await signedInBrowser(db, grace.id)

    const page = await callLoader(loader, {
      url: `/task?task=${task.id}`,
      headers: { Cookie: browser.cookie },
    })

    expect(page.data.taskModal).toEqual({ error: 'Task not found', taskId: task.id })
    expect(JSON.stringify(page.data)).not.toContain('psst')
    const [row] = await db.select().from(notifications).where(eq(notifications.id, notification.id))
    expect(row?.isRead).toBe(false)
  })
})
