import type { Page } from '@playwright/test'
import { computedStyle, hue } from './computed-style'
import { expect, type Person, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { detail, group, listReady, longDate, modal, modalReady, row } from './task-page'
import { uniqueTitle } from './unique'

/**
 * One person's tasks in a browser, with JavaScript on and off: the create form, the task modal
 * (opened from the list and from links, on /task and on other pages), editing, the row's status
 * form, subtasks and deleting. Sharing and publishing are in tasks-sharing.e2e.ts.
 */

/** The create form's panel. */
function newTask(page: Page) {
  return page.getByRole('region', { name: 'New task' })
}

/**
 * Success toasts come from the client (sonner): only with JavaScript. Once seen, the toast is
 * closed, as a person would: it sits over the modal's X (both top-right), and a toast under the
 * pointer pauses and never times out.
 */
async function expectToast(page: Page, javaScriptEnabled: boolean, title: string) {
  if (!javaScriptEnabled) return
  const toast = page.locator('[data-sonner-toast]').filter({ has: page.getByText(title, { exact: true }) })
  await expect(toast).toBeVisible()
  await toast.getByRole('button', { name: 'Close toast' }).click()
  await expect(toast).toHaveCount(0)
}

/** The modal's own X, which is a link to the same page without the task (so it works without JavaScript). */
async function closeWithX(page: Page) {
  await modal(page).getByRole('link', { name: 'Close' }).click()
  await expect(modal(page)).toHaveCount(0)
  await expect(page).not.toHaveURL(/[?&]task=/)
}

function taskIdFrom(page: Page) {
  const id = new URL(page.url()).searchParams.get('task')
  if (!id) throw new Error(`No ?task= in ${page.url()}`)
  return id
}

test('create a task: a two-character title is refused beside the field, then the task opens and is listed', async ({
  person: owner,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  await page.goto('/task')
  await expect(page.getByRole('heading', { level: 1, name: 'Task List' })).toBeVisible()
  await expect(group(page, 'My tasks')).toContainText('No tasks yet. Create your first one.')
  await expect(group(page, 'Shared with me')).toContainText('Nothing has been shared with you yet.')
  await listReady(page, javaScriptEnabled)

  const form = newTask(page)
  const title = form.getByLabel('Title')
  // Checked in the browser with JavaScript, and by the server without it.
  await title.fill('ab')
  await form.getByRole('button', { name: 'Create task' }).click()
  const error = form.getByText('Title must be at least 3 characters', { exact: true })
  await expect(error).toBeVisible()
  await expect(title).toHaveAttribute('aria-invalid', 'true')
  const errorId = await error.locator('xpath=ancestor::ul[1]').getAttribute('id')
  await expect(title).toHaveAttribute('aria-describedby', new RegExp(`\\b${errorId}\\b`))
  await expect(page).toHaveURL(/\/task$/)
  await expect(group(page, 'My tasks')).toContainText('No tasks yet. Create your first one.')

  const text = uniqueTitle('Write the launch plan', testInfo.project.name)
  await form.getByLabel('Title').fill(text)
  await form.getByLabel('Details').fill('Dates, owners and the rollback.')
  await form.getByLabel('Reference link').fill('https://example.com/launch')
  await form.getByLabel('Priority').selectOption('high')
  await form.getByLabel('Status').selectOption('In Progress')
  await form.getByLabel('Hours').fill('3')
  await form.getByRole('button', { name: 'Create task' }).click()

  // The new task opens in the modal, and the list behind it has it.
  await expect(page).toHaveURL(/\/task\?task=[^&]+$/)
  await expectToast(page, javaScriptEnabled, 'Task created')
  const dialog = modal(page)
  await expect(dialog.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(dialog, 'Created by')).toHaveText(owner.name)
  await closeWithX(page)
  const created = row(group(page, 'My tasks'), text)
  await expect(created).toContainText('HIGH')
  await expect(created).toContainText('LFG')
  await expect(created).toContainText('3 hours')
  await expect(created).toContainText(`by ${owner.name}`)
  await expect(group(page, 'My tasks').getByRole('heading')).toHaveText('My tasks (1)')
})

test('a live update of the list keeps the errors the create form is showing', async ({
  person,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, 'the list updates itself only with JavaScript')
  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  const form = newTask(page)
  await form.getByLabel('Title').fill('ab')
  await form.getByRole('button', { name: 'Create task' }).click()
  const error = form.getByText('Title must be at least 3 characters', { exact: true })
  await expect(error).toBeVisible()

  // A task made elsewhere (another tab, the API) reloads the list while the error is being read.
  const text = uniqueTitle('Made in another tab', testInfo.project.name)
  await createTaskThroughApi(person, { text })
  await expect(row(group(page, 'My tasks'), text)).toBeVisible()
  await expect(error).toBeVisible()
  await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true')
})

test('the modal, opened from the list and from links on any page, shows what the product rules list (§4)', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const [owner, friend] = await Promise.all([newPerson('Maud'), newPerson('Finn')])
  const page = await pageFor(owner)
  const high = uniqueTitle('Fix the login bug', project)
  const medium = uniqueTitle('Review the copy', project)
  const low = uniqueTitle('Tidy the backlog', project)
  const { id } = await createTaskThroughApi(owner, {
    text: high,
    details: 'It fails on the second try.',
    refLink: 'https://example.com/issues/7',
    priority: 'high',
    hrs: 2,
    sharedWith: [friend.email],
  })
  await createTaskThroughApi(owner, { text: medium, priority: 'medium', status: 'In Progress' })
  await createTaskThroughApi(owner, { text: low, priority: 'low', status: 'Completed', hrs: 1 })

  // From the list.
  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  await group(page, 'My tasks').getByRole('link', { name: high, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await modalReady(page, javaScriptEnabled)
  await expectHighTask(page, { owner, friend, title: high })
  await closeWithX(page)
  await expect(page).toHaveURL(/\/task$/)

  // The other badges: medium is amber and In Progress reads LFG; low is green and Completed, Done.
  await group(page, 'My tasks').getByRole('link', { name: medium, exact: true }).click()
  let dialog = modal(page)
  await expect(dialog.getByRole('heading', { name: medium })).toBeVisible()
  await expect(dialog.locator('[data-priority]')).toHaveText('MEDIUM')
  await expect(dialog.locator('[data-status]')).toHaveText('LFG')
  await expectHue(page, 'dialog [data-priority]', [45, 110])
  await expect(detail(dialog, 'Visibility')).toHaveText('Private')
  await expect(dialog.locator('dt')).toHaveText(['Visibility', 'Created by', 'Created'])
  await expect(dialog.getByRole('link', { name: /^https?:/ })).toHaveCount(0)
  await closeWithX(page)
  await group(page, 'My tasks').getByRole('link', { name: low, exact: true }).click()
  dialog = modal(page)
  await expect(dialog.getByRole('heading', { name: low })).toBeVisible()
  await expect(dialog.locator('[data-priority]')).toHaveText('LOW')
  await expect(dialog.locator('[data-status]')).toHaveText('Done')
  await expect(dialog.getByText('1 hour', { exact: true })).toBeVisible()
  await expectHue(page, 'dialog [data-priority]', [120, 180])
  await closeWithX(page)

  // The list's rows carry the same badges.
  await expect(row(page, medium)).toContainText('MEDIUM')
  await expect(row(page, medium)).toContainText('LFG')
  await expect(row(page, low)).toContainText('LOW')
  await expect(row(page, low)).toContainText('Done')
  await expect(row(page, high)).toContainText('Backlog')

  // From a link: the modal is rendered open by the server, on /task and on any other page.
  await page.goto(`/task?task=${id}`)
  await modalReady(page, javaScriptEnabled)
  await expectHighTask(page, { owner, friend, title: high })
  await page.goto(`/?task=${id}`)
  await modalReady(page, javaScriptEnabled)
  await expectHighTask(page, { owner, friend, title: high })
  await closeWithX(page)
  await expect(page).toHaveURL(/\/$/)
  // Unknown ids say so, in the same place.
  await page.goto('/task?task=no-such-task')
  await expect(modal(page).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(modal(page)).toContainText('The task does not exist, or you do not have access to it.')
})

async function expectHighTask(
  page: Page,
  { owner, friend, title }: { owner: Person; friend: Person; title: string },
) {
  const dialog = modal(page)
  await expect(dialog).toBeVisible()
  await expect(dialog).toHaveAccessibleName(title)
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(title)
  await expect(dialog.locator('[data-priority]')).toHaveText('HIGH')
  await expect(dialog.locator('[data-status]')).toHaveText('Backlog')
  await expectHue(page, 'dialog [data-priority]', [0, 40], [330, 360])
  await expect(dialog.getByText('2 hours', { exact: true })).toBeVisible()
  await expect(dialog.getByText('It fails on the second try.', { exact: true })).toBeVisible()
  const link = dialog.getByRole('link', { name: 'https://example.com/issues/7' })
  await expect(link).toHaveAttribute('href', 'https://example.com/issues/7')
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  await expect(dialog.locator('dt')).toHaveText(['Visibility', 'Created by', 'Shared with', 'Created'])
  await expect(detail(dialog, 'Visibility')).toHaveText('Private')
  await expect(detail(dialog, 'Created by')).toHaveText(owner.name)
  await expect(detail(dialog, 'Shared with')).toHaveText(friend.name)
  // The creation time is a moment ago, printed as the long date of product rules §4 (checked
  // against the time itself, so a run across midnight UTC still agrees).
  const created = detail(dialog, 'Created').locator('time')
  const iso = (await created.getAttribute('datetime')) ?? ''
  expect(Math.abs(Date.now() - Date.parse(iso))).toBeLessThan(15 * 60_000)
  await expect(created).toHaveText(longDate(iso))
  expect(longDate(iso)).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/)
  // The owner's tools.
  await expect(dialog.getByRole('link', { name: 'Edit', exact: true })).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Delete', exact: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Make public' })).toBeVisible()
  await expect(dialog.getByLabel('Share with (e-mail addresses)')).toHaveValue(friend.email)
}

/** The hue of a badge's background falls in one of these ranges (degrees): red, amber, green. */
async function expectHue(page: Page, selector: string, ...ranges: [number, number][]) {
  const color = await computedStyle(page, selector, 'background-color')
  const degrees = hue(color)
  expect(
    ranges.some(([from, to]) => degrees >= from && degrees <= to),
    `${selector} background ${color}`,
  ).toBe(true)
}

test.describe('closing the modal with the keyboard and the backdrop', () => {
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    'Escape and the backdrop need the modal dialog that JavaScript makes; without it the overlay is a link, covered by the X journey',
  )

  test('Escape and a click on the backdrop close it, and focus returns to the link that opened it', async ({
    person: owner,
    signedInPage: page,
  }, testInfo) => {
    const text = uniqueTitle('Close me', testInfo.project.name)
    await createTaskThroughApi(owner, { text })
    await page.goto('/task')
    await listReady(page, true)
    const opener = group(page, 'My tasks').getByRole('link', { name: text, exact: true })

    await opener.click()
    await modalReady(page, true)
    // Focus is inside the dialog while it is open.
    await expect(page.locator('dialog:focus-within')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(modal(page)).toHaveCount(0)
    await expect(page).toHaveURL(/\/task$/)
    await expect(opener).toBeFocused()

    await opener.click()
    await modalReady(page, true)
    // The backdrop: a point outside the dialog's box, which the modal dialog's ::backdrop covers.
    await page.mouse.click(5, 5)
    await expect(modal(page)).toHaveCount(0)
    await expect(page).toHaveURL(/\/task$/)
    await expect(opener).toBeFocused()

    // The X, too.
    await opener.click()
    await modalReady(page, true)
    await closeWithX(page)
    await expect(opener).toBeFocused()
  })
})

test('edit a task through ?view=edit: title, priority and hours', async ({
  person: owner,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const before = uniqueTitle('Draft the agenda', project)
  const after = uniqueTitle('Draft the final agenda', project)
  const { id } = await createTaskThroughApi(owner, { text: before, priority: 'medium', hrs: 1 })

  await page.goto(`/task?task=${id}`)
  await modalReady(page, javaScriptEnabled)
  const dialog = modal(page)
  await dialog.getByRole('link', { name: 'Edit', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`\\?task=${id}&view=edit$`))
  await expect(dialog.getByLabel('Title')).toHaveValue(before)
  await expect(dialog.getByLabel('Priority')).toHaveValue('medium')
  await expect(dialog.getByLabel('Hours')).toHaveValue('1')

  // Cancel goes back to the details, unchanged.
  await dialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`\\?task=${id}$`))
  await dialog.getByRole('link', { name: 'Edit', exact: true }).click()

  await dialog.getByLabel('Title').fill(after)
  await dialog.getByLabel('Priority').selectOption('high')
  await dialog.getByLabel('Hours').fill('5')
  await dialog.getByRole('button', { name: 'Save' }).click()

  await expect(page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expectToast(page, javaScriptEnabled, 'Task updated')
  await expect(dialog.getByRole('heading', { name: after })).toBeVisible()
  await expect(dialog.locator('[data-priority]')).toHaveText('HIGH')
  await expect(dialog.getByText('5 hours', { exact: true })).toBeVisible()
  await closeWithX(page)
  await expect(row(group(page, 'My tasks'), after)).toContainText('HIGH')
  await expect(row(group(page, 'My tasks'), after)).toContainText('5 hours')
  await expect(row(page, before)).toHaveCount(0)
})

test('change the status inline in the row', async ({
  person: owner,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const text = uniqueTitle('Ship the release', project)
  await createTaskThroughApi(owner, { text })
  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  const taskRow = row(group(page, 'My tasks'), text)
  const status = taskRow.getByLabel(`Status of ${text}`)
  await expect(status).toHaveValue('Not Started')
  await expect(taskRow.locator('[data-status]')).toHaveText('Backlog')

  if (javaScriptEnabled) {
    // Choosing is enough: no Save button, no page load, and the badge changes before the server
    // has answered (the post is held until the badge has been seen).
    await expect(taskRow.getByRole('button', { name: 'Save' })).toHaveCount(0)
    await page.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/task/actions*', async (route) => {
      if (route.request().method() === 'POST') await held
      await route.continue()
    })
    await status.selectOption('In Progress')
    await expect(taskRow.locator('[data-status]')).toHaveText('LFG')
    release()
    await expectToast(page, true, 'Status updated')
    await expect(page).toHaveURL(/\/task$/)
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    )
    await page.unroute('**/task/actions*')
  } else {
    await status.selectOption('In Progress')
    await taskRow.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/task$/)
    await expect(taskRow.locator('[data-status]')).toHaveText('LFG')
  }

  // It was saved.
  await page.reload()
  await expect(row(group(page, 'My tasks'), text).locator('[data-status]')).toHaveText('LFG')
  await expect(row(group(page, 'My tasks'), text).getByLabel(`Status of ${text}`)).toHaveValue('In Progress')
})

test('a subtask under a parent: the parent shows its progress', async ({
  person: owner,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const parent = uniqueTitle('Plan the offsite', project)
  const child = uniqueTitle('Book the venue', project)
  const { id: parentId } = await createTaskThroughApi(owner, { text: parent })

  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  const form = newTask(page)
  await form.getByLabel('Title').fill(child)
  await form.getByLabel('Subtask of').selectOption({ label: parent })
  await form.getByRole('button', { name: 'Create task' }).click()
  await expect(page).toHaveURL(/\/task\?task=[^&]+$/)
  const childId = taskIdFrom(page)
  await expect(modal(page).getByRole('heading', { name: child })).toBeVisible()
  await closeWithX(page)

  // Subtasks live under their parent, not as rows of their own.
  const parentRow = row(group(page, 'My tasks'), parent)
  await expect(parentRow).toContainText('0/1 subtasks done')
  await expect(row(page, child)).toHaveCount(0)

  await parentRow.getByRole('link', { name: parent, exact: true }).click()
  const dialog = modal(page)
  await expect(dialog.getByRole('heading', { name: 'Subtasks (0/1 done)' })).toBeVisible()
  await dialog.getByRole('link', { name: child, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/task\\?task=${childId}$`))
  await modalReady(page, javaScriptEnabled)
  await expect(dialog.getByRole('heading', { name: child })).toBeVisible()
  await dialog.getByLabel('Status').selectOption('Completed')
  await dialog.getByRole('button', { name: 'Update status' }).click()
  await expectToast(page, javaScriptEnabled, 'Status updated')
  await expect(dialog.locator('[data-status]')).toHaveText('Done')
  await closeWithX(page)
  await expect(row(group(page, 'My tasks'), parent)).toContainText('1/1 subtasks done')

  await page.goto(`/task?task=${parentId}`)
  await expect(modal(page).getByRole('heading', { name: 'Subtasks (1/1 done)' })).toBeVisible()
})

test('delete a task after a confirmation that mentions its subtasks', async ({
  person: owner,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const parent = uniqueTitle('Retire the old site', project)
  const child = uniqueTitle('Redirect the old pages', project)
  const { id } = await createTaskThroughApi(owner, { text: parent })
  const { id: childId } = await createTaskThroughApi(owner, { text: child, parentTaskId: id })

  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  await group(page, 'My tasks').getByRole('link', { name: parent, exact: true }).click()
  const dialog = modal(page)
  await dialog.getByRole('link', { name: 'Delete', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/task\\?task=${id}&view=delete$`))
  await expect(dialog.locator('p')).toHaveText(
    `Delete ${parent}? Its 1 subtask will be deleted too. This cannot be undone.`,
  )

  // Cancel keeps it.
  await dialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expect(dialog.getByRole('heading', { name: parent })).toBeVisible()

  await dialog.getByRole('link', { name: 'Delete', exact: true }).click()
  await dialog.getByRole('button', { name: 'Delete task' }).click()
  await expect(page).toHaveURL(/\/task$/)
  await expectToast(page, javaScriptEnabled, 'Task deleted')
  await expect(modal(page)).toHaveCount(0)
  await expect(row(page, parent)).toHaveCount(0)
  await expect(group(page, 'My tasks')).toContainText('No tasks yet. Create your first one.')

  // Gone, subtask too.
  for (const gone of [id, childId]) {
    await page.goto(`/task?task=${gone}`)
    await expect(modal(page).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  }
})
