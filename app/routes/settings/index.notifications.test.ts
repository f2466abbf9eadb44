import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { users } from '~/db/schema'
import { readToast } from '~/toast.server'
import { callThroughMiddleware, signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { renderRoute, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import Settings, { action, loader } from './index'

/**
 * /settings' "E-mail me when I'm mentioned": a checkbox in a real form. Ticked, the browser sends
 * `emailOnMention=on`; unticked, it sends nothing for it — which must mean off.
 */

async function signedIn() {
  const db = database()
  const user = await createUser(db)
  const browser = await signedInBrowser(db, user.id)
  const post = (fields: Record<string, string>) =>
    callAction(action, { url: '/settings', headers: { Cookie: browser.cookie }, form: browser.form(fields) })
  const setting = async () => (await db.select().from(users).where(eq(users.id, user.id)))[0]?.emailOnMention
  return { user, browser, post, setting }
}

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

describe('mention e-mails setting', () => {
  test('is on until the person turns it off, and the page says so', async () => {
    const { browser } = await signedIn()
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
    expect(page.data.emailOnMention).toBe(true)
  })

  test('unticked turns it off, ticked turns it on again, each with a toast', async () => {
    const { post, setting } = await signedIn()

    const off = await post({ intent: 'mention-emails' })
    expect(off).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(off.headers)).toMatchObject({ type: 'success', title: 'Mention e-mails are off' })
    expect(await setting()).toBe(false)

    const on = await post({ intent: 'mention-emails', emailOnMention: 'on' })
    expect(await toastOf(on.headers)).toMatchObject({ type: 'success', title: 'Mention e-mails are on' })
    expect(await setting()).toBe(true)
  })

  test.each([
    ['mention-emails', 'emailOnMention'],
    ['due-emails', 'emailOnDue'],
  ] as const)('without the CSRF token nothing changes (%s)', async (intent, column) => {
    const { user, browser } = await signedIn()
    const answer = await callThroughMiddleware(action, {
      url: '/settings',
      headers: { Cookie: browser.cookie },
      form: { intent },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    expect((await database().select().from(users).where(eq(users.id, user.id)))[0]?.[column]).toBe(true)
  })
})

describe('due-date reminders setting', () => {
  const dueSetting = async (id: string) =>
    (await database().select().from(users).where(eq(users.id, id)))[0]?.emailOnDue

  test('is on until the person turns it off, and the page says so', async () => {
    const { browser } = await signedIn()
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
    expect(page.data.emailOnDue).toBe(true)
  })

  test('the page has it as a checkbox in a form of its own, which posts without JavaScript, showing what is saved', async () => {
    const { browser, post } = await signedIn()
    const render = async () => {
      const page = await callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
      const html = renderRoute(
        { id: 'routes/settings/index', path: '/settings', Component: Settings },
        { loaderData: page.data },
      )
      const form =
        /<form[^>]*method="post"[^>]*>(?:(?!<\/form>).)*name="intent" value="due-emails"(?:(?!<\/form>).)*<\/form>/s.exec(
          html,
        )?.[0]
      return { html, form }
    }

    const on = await render()
    expect(on.form).toContain('E-mail me on the day a task is due')
    expect(on.form).toMatch(/<input type="checkbox"[^>]*name="emailOnDue" checked="" value="on"/)
    expect(on.form).not.toContain('emailOnMention')
    expect(visibleText(on.html)).toContain('Save reminder settings')

    await post({ intent: 'due-emails' })
    const off = await render()
    expect(off.form).toMatch(/<input type="checkbox"[^>]*name="emailOnDue"/)
    expect(off.form).not.toMatch(/name="emailOnDue"[^>]*checked/)
  })

  test('unticked turns it off, ticked turns it on again, each with a toast; mention e-mails stay as they were', async () => {
    const { user, post, setting } = await signedIn()

    const off = await post({ intent: 'due-emails' })
    expect(off).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(off.headers)).toMatchObject({ type: 'success', title: 'Due-date reminders are off' })
    expect(await dueSetting(user.id)).toBe(false)
    expect(await setting()).toBe(true)

    const on = await post({ intent: 'due-emails', emailOnDue: 'on' })
    expect(await toastOf(on.headers)).toMatchObject({ type: 'success', title: 'Due-date reminders are on' })
    expect(await dueSetting(user.id)).toBe(true)
  })
})
