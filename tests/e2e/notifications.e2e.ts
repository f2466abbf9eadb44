import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi } from './rpc-calls'
import { modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The inbox, with JavaScript on and off: a person mentioned on two tasks sees the count on the
 * bell in the header, opens the inbox, follows a mention to its task, marks one read and then all
 * read, and the badge is gone. Without JavaScript every step is a link or a real form; with it,
 * the badge also updates on an open page, and a mention read in the inbox is never toasted again.
 */

// Each test signs people up with real scrypt, on two cores shared with the other workers.
test.describe.configure({ timeout: 90_000 })

/** The bell in the header: its accessible name says how many are unread. */
function bell(page: Page) {
  return page.getByRole('banner').getByRole('link', { name: /^Notifications/ })
}

function inboxItems(page: Page) {
  return page.getByRole('list', { name: 'Notifications' }).getByRole('listitem')
}

function item(page: Page, taskText: string) {
  return inboxItems(page).filter({ hasText: `mentioned you on “${taskText}”` })
}

/** A toast with JavaScript; the banner that carries it across the redirect without. */
function notice(page: Page, javaScriptEnabled: boolean, title: string) {
  return javaScriptEnabled
    ? page.locator('[data-sonner-toast]').filter({ hasText: title })
    : page.getByRole('status').filter({ hasText: title })
}

test('mentioned on two tasks: the badge counts, the inbox lists, a link opens the task, marking read clears it', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const venue = uniqueTitle('Book the venue', project)
  const menu = uniqueTitle('Choose the menu', project)
  const [venueTask, menuTask] = await Promise.all([
    createTaskThroughApi(ada, { text: venue, sharedWith: [grace.email] }),
    createTaskThroughApi(ada, { text: menu, sharedWith: [grace.email] }),
  ])

  const page = await pageFor(grace)
  await page.goto('/task')
  await expect(bell(page)).toHaveAccessibleName('Notifications')

  await addCommentThroughApi(ada, { taskId: venueTask.id, content: '@Grace can you call the venue?' })
  await addCommentThroughApi(ada, { taskId: menuTask.id, content: '@Grace vegetarian options?' })
  await addCommentThroughApi(ada, { taskId: menuTask.id, content: '@Grace and dessert?' })

  // With JavaScript the open page learns of them by itself; without, the next page shows them.
  if (!javaScriptEnabled) await page.reload()
  await expect(bell(page)).toHaveAccessibleName('Notifications, 3 unread')
  await expect(bell(page)).toContainText('3')

  await bell(page).click()
  await expect(page).toHaveURL(/\/notifications$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Notifications')
  await expect(page.getByText('3 unread mentions')).toBeVisible()
  await expect(inboxItems(page)).toHaveCount(3)
  // Newest first, each with who, the task, the comment and when.
  await expect(inboxItems(page).first()).toContainText(`Ada mentioned you on “${menu}”`)
  await expect(inboxItems(page).first()).toContainText('@Grace and dessert?')
  await expect(inboxItems(page).first()).toContainText('Just now')
  await expect(item(page, venue)).toContainText('Unread')

  // Following a mention opens its task over the inbox, which reads that task's mention.
  await item(page, venue)
    .getByRole('link', { name: `Ada mentioned you on “${venue}”` })
    .click()
  await expect(page).toHaveURL(new RegExp(`/notifications\\?task=${venueTask.id}$`))
  await modalReady(page, javaScriptEnabled)
  await expect(modal(page).getByRole('heading', { level: 2 })).toHaveText(venue)
  await modal(page).getByRole('link', { name: 'Close' }).click()
  await expect(page).toHaveURL(/\/notifications$/)
  await expect(item(page, venue)).not.toContainText('Unread')
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread')

  // One by its own button.
  const dessert = inboxItems(page).filter({ hasText: '@Grace and dessert?' })
  await dessert.getByRole('button', { name: /^Mark as read/ }).click()
  await expect(notice(page, javaScriptEnabled, 'Marked as read')).toBeVisible()
  await expect(dessert).not.toContainText('Unread')
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread')

  // And the rest at once.
  await page.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(notice(page, javaScriptEnabled, 'All caught up')).toBeVisible()
  await expect(page.getByText('You are all caught up.')).toBeVisible()
  await expect(page.getByText('Unread', { exact: true })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0)
  await expect(bell(page)).toHaveAccessibleName('Notifications')
  await expect(page.getByTestId('unread-badge')).toHaveCount(0)

  if (javaScriptEnabled) {
    // A browser that never showed them (nothing remembered in its storage) toasts none: read in
    // the inbox is read for the toasts too.
    const fresh = await pageFor(grace)
    const polled = fresh.waitForResponse((response) =>
      response.url().includes('/api/rpc/comments/getMentionNotifications'),
    )
    await fresh.goto('/task')
    await polled
    await expect(fresh.getByText('mentioned you in a comment')).toHaveCount(0)
  }
})

test('mentions read in one tab clear the badge in the other tabs, without a reload', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, 'an open page updates itself only with JavaScript')
  const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Hang the posters', testInfo.project.name),
    sharedWith: [grace.email],
  })
  await addCommentThroughApi(ada, { taskId: id, content: '@Grace where do they go?' })

  const board = await pageFor(grace)
  await board.goto('/task')
  await expect(bell(board)).toHaveAccessibleName('Notifications, 1 unread')
  const inbox = await board.context().newPage()
  await inbox.goto('/notifications')
  await inbox.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(inbox.getByText('You are all caught up.')).toBeVisible()

  await expect(bell(board)).toHaveAccessibleName('Notifications')
  await expect(board.getByTestId('unread-badge')).toHaveCount(0)
})

test('an empty inbox says so', async ({ signedInPage: page }) => {
  await page.goto('/notifications')
  await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible()
  await expect(page.getByText('You are all caught up.')).toBeVisible()
  await expect(bell(page)).toHaveAttribute('aria-current', 'page')
})

test("'E-mail me when I'm mentioned' is on until turned off in settings, and stays as saved", async ({
  signedInPage: page,
  javaScriptEnabled,
}) => {
  await page.goto('/settings')
  const section = page.getByRole('region', { name: 'Notifications' })
  const checkbox = section.getByRole('checkbox', { name: "E-mail me when I'm mentioned" })
  const save = section.getByRole('button', { name: 'Save notification settings' })
  await expect(checkbox).toBeChecked()

  await checkbox.uncheck()
  await save.click()
  await expect(notice(page, javaScriptEnabled, 'Mention e-mails are off')).toBeVisible()
  await page.goto('/settings')
  await expect(checkbox).not.toBeChecked()

  await checkbox.check()
  await save.click()
  await expect(notice(page, javaScriptEnabled, 'Mention e-mails are on')).toBeVisible()
  await page.goto('/settings')
  await expect(checkbox).toBeChecked()
})

test('a visitor is sent to sign in and back', async ({ page }) => {
  await page.goto('/notifications')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fnotifications$/)
})

test.describe('the inbox has no serious or critical accessibility violations', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe needs to run a script in the page')

  for (const theme of ['light', 'dark'] as const) {
    test(`read, unread and empty, ${theme} theme`, async ({ newPerson, pageFor }, testInfo) => {
      const project = `${testInfo.project.name}-${theme}`
      const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
      const page = await pageFor(grace, { theme })
      await page.goto('/notifications')
      await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible()
      await expectNoSeriousA11yViolations(page, 'empty inbox')

      const text = uniqueTitle('Print the badges', project)
      const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })
      await addCommentThroughApi(ada, { taskId: id, content: '@Grace which font?' })
      await addCommentThroughApi(ada, { taskId: id, content: '@Grace and which paper?' })
      await page.goto('/notifications')
      await expect(inboxItems(page)).toHaveCount(2)
      await inboxItems(page)
        .first()
        .getByRole('button', { name: /^Mark as read/ })
        .click()
      await expect(page.getByText('1 unread mention')).toBeVisible()
      // Loaded afresh, so axe checks the inbox rather than the toasts that came over it.
      await page.goto('/notifications')
      await expect(page.getByText('1 unread mention')).toBeVisible()
      await expectNoSeriousA11yViolations(page, 'inbox with read and unread mentions')
    })
  }
})
