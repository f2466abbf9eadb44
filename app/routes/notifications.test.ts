import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { notifications, taskShares } from '~/db/schema'
import { loader as rootLoader } from '~/root'
import { readToast } from '~/toast.server'
import { NOT_A_FORM_MESSAGE } from '~/utils/form-data.server'
import { callThroughMiddleware, signedInBrowser } from '../../tests/helpers/auth'
import {
  createComment,
  createMentionNotification,
  createTask,
  createUser,
  shareTask,
} from '../../tests/helpers/factories'
import { buttons, links, textContent, visibleText } from '../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../tests/helpers/route'
import Notifications, { action, loader } from './notifications'

/**
 * /notifications, the inbox that works without JavaScript: visitors are sent to sign in; a
 * person sees their mentions newest first and marks one or all read with real form posts; the
 * header's badge (root loader) counts what is left.
 */

const db = database()

async function world() {
  const ada = await createUser(db, { name: 'Ada' })
  const grace = await createUser(db, { name: 'Grace' })
  const task = await createTask(db, { userId: ada.id, text: 'Plan the offsite' })
  await shareTask(db, task.id, [grace.email])
  const browser = await signedInBrowser(db, grace.id)
  const mention = async (content: string, createdAt: Date) => {
    const comment = await createComment(db, { taskId: task.id, userId: ada.id, content })
    return createMentionNotification(db, {
      recipientId: grace.id,
      taskId: task.id,
      commentId: comment.id,
      fromUserId: ada.id,
      content,
      createdAt,
    })
  }
  const inbox = (url = '/notifications') => callLoader(loader, { url, headers: { Cookie: browser.cookie } })
  const post = (fields: Record<string, string>) =>
    callAction(action, {
      url: '/notifications',
      headers: { Cookie: browser.cookie },
      form: browser.form(fields),
    })
  const isRead = async (id: string) =>
    (await db.select().from(notifications).where(eq(notifications.id, id)))[0]?.isRead
  return { ada, grace, task, browser, mention, inbox, post, isRead }
}

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/notifications' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fnotifications' })
  })

  test('lists the mentions newest first, with the time it listed them', async () => {
    const { mention, inbox } = await world()
    const older = await mention('@Grace the venue?', new Date(Date.now() - 60_000))
    const newer = await mention('@Grace the menu?', new Date())

    const page = await inbox()

    expect(page.status).toBe(200)
    expect(page.data.mentions.map((item) => [item.id, item.excerpt, item.isRead])).toEqual([
      [newer.id, '@Grace the menu?', false],
      [older.id, '@Grace the venue?', false],
    ])
    expect(Date.parse(page.data.listedAt)).toBeGreaterThanOrEqual(newer.createdAt.getTime())
  })

  test("opening a task from the inbox (?task=) shows that task's mentions read, others not", async () => {
    const { ada, grace, task, mention, inbox } = await world()
    const here = await mention('@Grace here', new Date())
    const other = await createTask(db, { userId: ada.id, text: 'Other' })
    await shareTask(db, other.id, [grace.email])
    const elsewhere = await createMentionNotification(db, { recipientId: grace.id, taskId: other.id })

    const page = await inbox(`/notifications?task=${task.id}`)

    const readById = Object.fromEntries(page.data.mentions.map((item) => [item.id, item.isRead]))
    expect(readById).toEqual({ [here.id]: true, [elsewhere.id]: false })
  })
})

describe('action', () => {
  test('mark-read marks that mention read and comes back with a toast', async () => {
    const { mention, post, isRead } = await world()
    const one = await mention('@Grace one', new Date())
    const two = await mention('@Grace two', new Date())

    const answer = await post({ intent: 'mark-read', notificationId: one.id })

    expect(answer).toMatchObject({ status: 302, location: '/notifications' })
    expect(await toastOf(answer.headers)).toMatchObject({ type: 'success', title: 'Marked as read' })
    expect(await isRead(one.id)).toBe(true)
    expect(await isRead(two.id)).toBe(false)
  })

  test("someone else's mention does not exist for them: 404, nothing changes", async () => {
    const { ada, task, post, isRead } = await world()
    const adas = await createMentionNotification(db, { recipientId: ada.id, taskId: task.id })
    const answer = await post({ intent: 'mark-read', notificationId: adas.id })
    expect(answer).toMatchObject({ status: 404, data: { error: 'Notification not found' } })
    expect(await isRead(adas.id)).toBe(false)
  })

  test('mark-all-read marks what was listed, not what arrived after', async () => {
    const { mention, post, isRead, inbox } = await world()
    const listed = await mention('@Grace listed', new Date(Date.now() - 1_000))
    const page = await inbox()
    const later = await mention('@Grace later', new Date(Date.parse(page.data.listedAt) + 1))

    const answer = await post({ intent: 'mark-all-read', upTo: page.data.listedAt })

    expect(answer).toMatchObject({ status: 302, location: '/notifications' })
    expect(await toastOf(answer.headers)).toMatchObject({
      type: 'success',
      title: 'All caught up',
      description: '1 notification marked as read.',
    })
    expect(await isRead(listed.id)).toBe(true)
    expect(await isRead(later.id)).toBe(false)
  })

  test('bad input is a 400 with a message, never a 500', async () => {
    const { browser, post } = await world()
    expect((await post({ intent: 'mark-all-read' })).status).toBe(400)
    expect((await post({ intent: 'mark-all-read', upTo: 'yesterday' })).status).toBe(400)
    expect((await post({ intent: 'mark-read' })).status).toBe(400)
    expect((await post({ intent: 'delete-everything' })).status).toBe(400)
    // A body that is not a form gets the one answer every form action gives it.
    const json = await callAction(action, {
      url: '/notifications',
      headers: { Cookie: browser.cookie },
      json: { intent: 'mark-all-read' },
    })
    expect(json.status).toBe(415)
    expect(json.data).toBe(NOT_A_FORM_MESSAGE)
  })

  test('without the CSRF token nothing is marked', async () => {
    const { browser, mention, isRead } = await world()
    const one = await mention('@Grace one', new Date())
    const answer = await callThroughMiddleware(action, {
      url: '/notifications',
      headers: { Cookie: browser.cookie },
      form: { intent: 'mark-read', notificationId: one.id },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    expect(await isRead(one.id)).toBe(false)
  })
})

describe("the header's badge (root loader)", () => {
  test('counts unread mentions on tasks the person can still see', async () => {
    const { task, browser, mention, post } = await world()
    const root = async () =>
      (await callLoader(rootLoader, { url: '/task', headers: { Cookie: browser.cookie } })).data
        .unreadMentions
    const one = await mention('@Grace one', new Date())
    await mention('@Grace two', new Date())
    expect(await root()).toBe(2)

    await post({ intent: 'mark-read', notificationId: one.id })
    expect(await root()).toBe(1)

    await db.delete(taskShares).where(eq(taskShares.taskId, task.id))
    expect(await root()).toBe(0)
  })

  test('opening the task (?task=) reads its mentions, and the badge counts what is left', async () => {
    const { task, browser, mention } = await world()
    await mention('@Grace one', new Date())
    const page = await callLoader(rootLoader, {
      url: `/notifications?task=${task.id}`,
      headers: { Cookie: browser.cookie },
    })
    expect(page.data.unreadMentions).toBe(0)
  })

  test('a visitor has no badge and costs no query', async () => {
    expect((await callLoader(rootLoader, { url: '/' })).data.unreadMentions).toBe(0)
  })
})

describe('the page', () => {
  async function render() {
    const { task, mention, inbox } = await world()
    await mention('@Grace <b>bold</b> question', new Date())
    const page = await inbox()
    return { html: renderPage(page.data), taskId: task.id }
  }

  function renderPage(loaderData: unknown) {
    const Page = createRoutesStub([
      { id: 'routes/notifications', path: '/notifications', Component: Notifications as never },
    ])
    return renderToString(
      createElement(Page, {
        initialEntries: ['/notifications'],
        hydrationData: { loaderData: { 'routes/notifications': loaderData } },
      }),
    )
  }

  test('each mention links to its task here, says it is unread, and has its own form', async () => {
    const { html, taskId } = await render()
    expect(links(html)).toContainEqual({
      text: 'Ada mentioned you on “Plan the offsite”',
      href: `/notifications?task=${taskId}`,
    })
    const text = visibleText(html)
    expect(text).toContain('1 unread mention')
    expect(textContent(html)).toContain('Ada mentioned you on “Plan the offsite” Unread')
    // The comment is text, never markup.
    expect(html).toContain('@Grace &lt;b&gt;bold&lt;/b&gt; question')
    const [markAll, markOne] = buttons(html)
    expect(markAll).toBe('Mark all as read')
    // Named by its visible text first, then which mention (for screen readers, hidden text).
    expect(markOne).toMatch(/^Mark as read ?: Ada on “Plan the offsite”$/)
    const forms = [...html.matchAll(/<form\b([^>]*)>/g)].map(([, attributes]) => attributes)
    expect(forms).toHaveLength(2)
    for (const form of forms) expect(form).toMatch(/action="\/notifications" method="post"/)
    expect(html).toContain('name="intent" value="mark-read"')
    expect(html).toContain('name="intent" value="mark-all-read"')
  })

  test('with an assignment among the unread, the summary counts notifications, not mentions', async () => {
    const { task, mention, inbox } = await world()
    await mention('@Grace a question', new Date())
    const page = await inbox()
    const [listed] = page.data.mentions
    if (!listed) throw new Error('the mention is listed')
    const assignment = { ...listed, id: 'assignment-1', type: 'assignment' as const, excerpt: task.text }
    const text = visibleText(renderPage({ ...page.data, mentions: [assignment, listed] }))
    expect(text).toContain('2 unread notifications')
    expect(text).toContain(`Ada assigned you “${task.text}”`)
  })

  test('an empty inbox says so and offers no forms', async () => {
    const html = renderPage({ mentions: [], listedAt: new Date().toISOString() })
    expect(html).toContain('No notifications yet')
    expect(html).toContain('You are all caught up.')
    expect(html).not.toContain('Mark all as read')
  })
})
