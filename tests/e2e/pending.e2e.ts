import type { Locator, Page } from '@playwright/test'
import { clientFrom, signUpThroughApi } from './api-client'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi, sharedTask } from './rpc-calls'
import { modal, modalReady } from './task-page'
import { uniqueAddress, uniqueTitle } from './unique'

/**
 * Every submit button shows that its form is on its way (disabled, aria-busy, its pending text)
 * until the answer is in, and a double click sends one request. The server's answers are held
 * back here (page.route) so the pending state can be seen; the count is of the POSTs the page
 * tried to send.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Pending states are drawn by a script')

/** Holds the page's POSTs to `url` until released, counting them. */
async function holdPosts(page: Page, url: RegExp) {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const held = { count: 0, release: () => release() }
  await page.route(url, async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    held.count += 1
    await released
    await route.continue()
  })
  return held
}

/**
 * Double-clicks the button, then checks it is pending and that one request left. Found again
 * by a mark, since its name changes to the pending text.
 */
async function doubleClickOnce(page: Page, button: Locator, pendingText: string, held: { count: number }) {
  await button.evaluate((element) => element.setAttribute('data-test-clicked', ''))
  await button.dblclick()
  await expectPendingOnce(page, page.locator('[data-test-clicked]'), pendingText, held)
  await page
    .locator('[data-test-clicked]')
    .evaluate((element) => element.removeAttribute('data-test-clicked'))
}

/** The button is pending, and the double click that made it so sent one request. */
async function expectPendingOnce(page: Page, button: Locator, pendingText: string, held: { count: number }) {
  await expect(button).toBeDisabled()
  await expect(button).toHaveAttribute('aria-busy', 'true')
  await expect(button).toHaveText(pendingText)
  // Long enough for a second request to have left, had the second click sent one.
  await page.waitForTimeout(300)
  expect(held.count).toBe(1)
}

const PASSWORD = 'pending states password'

test('Sign in on /login?redirect=… (where the header’s link goes) shows its pending state, once', async ({
  page,
}) => {
  await page.goto(`/login?redirect=${encodeURIComponent('/task')}`)
  await expect(page.locator('form#login')).toHaveAttribute('novalidate', '')
  await page.getByLabel('E-mail').fill(uniqueAddress('nobody', 'pending'))
  await page.getByLabel('Password').fill(PASSWORD)
  const held = await holdPosts(page, /\/login\.data/)
  const button = page.getByRole('button', { name: 'Sign in', exact: true })

  await doubleClickOnce(page, button, 'Signing in…', held)
  held.release()
  await expect(page.getByText('Invalid e-mail or password.')).toBeVisible()
  await expect(button).toBeEnabled()
  await expect(button).not.toHaveAttribute('aria-busy')
})

test('Create account on /signup?redirect=… shows its pending state, once', async ({ page }) => {
  await page.goto(`/signup?redirect=${encodeURIComponent('/task')}`)
  await expect(page.locator('form#signup')).toHaveAttribute('novalidate', '')
  await page.getByLabel('Name').fill('Pat')
  await page.getByLabel('E-mail').fill(uniqueAddress('pat', 'pending'))
  await page.getByLabel('Password').fill(PASSWORD)
  // Not sent on: the test needs the pending state, not a new account from the browsers' shared IP.
  const held = await holdPosts(page, /\/signup\.data/)
  const button = page.getByRole('button', { name: 'Create account', exact: true })
  await doubleClickOnce(page, button, 'Creating account…', held)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('the task modal’s forms: Update status, Save sharing, Make public, Save, Delete task', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  test.setTimeout(90_000)
  const ada = await newPerson('Ada')
  const text = uniqueTitle('Order the banners', testInfo.project.name)
  const { id } = await createTaskThroughApi(ada, { text })
  const page = await pageFor(ada)
  await page.goto(`/task?task=${id}`)
  await modalReady(page, true)
  const dialog = modal(page)

  const cases: { name: string; pendingText: string; prepare?: () => Promise<void> }[] = [
    {
      name: 'Update status',
      pendingText: 'Updating…',
      prepare: () =>
        dialog
          .getByLabel('Status')
          .selectOption('In Progress')
          .then(() => {}),
    },
    {
      name: 'Save sharing',
      pendingText: 'Saving…',
      prepare: () => dialog.getByLabel('Share with (e-mail addresses)').fill(''),
    },
    { name: 'Make public', pendingText: 'Saving…' },
  ]
  for (const { name, pendingText, prepare } of cases) {
    await prepare?.()
    const held = await holdPosts(page, /\/task\/actions\.data/)
    const button = dialog.getByRole('button', { name, exact: true })
    await doubleClickOnce(page, button, pendingText, held)
    held.release()
    await expect(dialog.locator('[aria-busy="true"]')).toHaveCount(0)
    await page.unrouteAll({ behavior: 'wait' })
  }
  await expect(dialog.getByRole('button', { name: 'Make private', exact: true })).toBeVisible()

  // Editing: Save is a page form (a navigation), pending until the modal shows the change.
  await dialog.getByRole('link', { name: 'Edit', exact: true }).click()
  await dialog.getByLabel('Title').fill(`${text} (final)`)
  let held = await holdPosts(page, /\/task\/actions\.data/)
  let button = dialog.getByRole('button', { name: 'Save', exact: true })
  await doubleClickOnce(page, button, 'Saving…', held)
  held.release()
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`${text} (final)`)
  await page.unrouteAll({ behavior: 'wait' })

  await dialog.getByRole('link', { name: 'Delete', exact: true }).click()
  held = await holdPosts(page, /\/task\/actions\.data/)
  button = dialog.getByRole('button', { name: 'Delete task', exact: true })
  await doubleClickOnce(page, button, 'Deleting…', held)
  held.release()
  await expect(modal(page)).toHaveCount(0)
})

test('the inbox: Mark all as read shows its pending state, once', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  test.setTimeout(90_000)
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Print the badges')
  await addCommentThroughApi(ada, { taskId: id, content: '@Grace which font?' })
  const page = await pageFor(grace)
  await page.goto('/notifications')
  await expect(page.getByTestId('unread-summary')).toHaveText('1 unread mention')

  // (A line's own Mark as read leaves with its line at once: the line shows read before the answer.)
  const held = await holdPosts(page, /\/notifications\.data/)
  const button = page.getByRole('button', { name: 'Mark all as read', exact: true })
  await doubleClickOnce(page, button, 'Marking all…', held)
  held.release()
  await expect(page.getByTestId('unread-summary')).toHaveText('You are all caught up.')
  await expect(button).toHaveCount(0)
})

test('settings: Revoke shows its pending state on its own row, once', async ({
  baseURL,
  pageFor,
}, testInfo) => {
  const email = uniqueAddress('revoker', testInfo.project.name)
  const laptop = await signUpThroughApi(baseURL ?? '', { name: 'Rita', email, password: PASSWORD })
  // A second session: another device signing in.
  const phone = clientFrom(baseURL ?? '')
  const signedIn = await phone.post(
    '/api/auth/sign-in/email',
    { json: { email, password: PASSWORD } },
    { 'x-csrf-token': await phone.csrf() },
  )
  expect(signedIn.status, signedIn.body).toBe(200)

  const page = await pageFor({ client: laptop })
  await page.goto('/settings')
  const rows = page.getByTestId('session-row')
  await expect(rows).toHaveCount(2)
  // Hydrated: the forms post through the router.
  await expect(page.locator('form#update-profile')).toHaveAttribute('novalidate', '')
  const other = rows.filter({ hasNotText: 'This device' })
  const held = await holdPosts(page, /\/settings\.data/)
  const button = other.getByRole('button', { name: /^Revoke .* session$/ })
  await doubleClickOnce(page, button, 'Revoking…', held)
  // Only that row is pending.
  await expect(rows.filter({ hasText: 'This device' }).getByRole('button')).toBeEnabled()
  held.release()
  await expect(rows).toHaveCount(1)
})
