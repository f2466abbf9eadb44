import { expect as baseExpect, type Locator, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations, skipWithoutJavaScript } from './axe'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { signUpInBrowser } from './sign-up'
import { modal, modalReady } from './task-page'
import { expectTheme, THEMES } from './theme-cookie'
import { uniqueAddress, uniqueTitle } from './unique'

/**
 * A new person's first minutes, with JavaScript and without: sign up, the onboarding steps
 * (name, a first task, sharing it), the dashboard, and its numbers and charts moving as tasks are
 * created and completed. Then the dashboard and onboarding pages against axe, in both themes and
 * on a phone.
 */

// The browser's own zone, which its boot script reports to the server (with JavaScript).
test.use({ timezoneId: 'America/New_York' })

/** A stat card's value: the `dd` right after its `dt` (the cards come before any other list). */
function stat(page: Page, label: string) {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .first()
    .locator('xpath=following-sibling::dd[1]')
}

/** The number a chart's hidden table gives a row (charts carry their numbers as a table). */
function chartCell(page: Page, chart: string, row: string): Locator {
  return page
    .locator('table', { has: page.locator('caption', { hasText: chart }) })
    .locator('tr', { has: page.locator('th', { hasText: row }) })
    .locator('td')
}

test('a new person is guided to a first shared task, and the dashboard counts what they finish', async ({
  page,
  newPerson,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(90_000)
  const project = testInfo.project.name
  const colleague = await newPerson('Grace')
  const email = uniqueAddress('onboarding', project)
  const first = uniqueTitle('Plan the launch', project)

  await signUpInBrowser(page, { name: 'Newcomer', email, password: 'a long enough password' })

  // Step 1: name and avatar.
  await expect(page.getByText('Step 1 of 4')).toBeVisible()
  await page.getByLabel('Name').fill('Ada Newcomer')
  await page.getByRole('button', { name: 'Save and continue' }).click()

  // Step 2: a first task.
  await expect(page).toHaveURL(/\/onboarding\?step=task$/)
  await expect(page.getByRole('heading', { name: 'Create your first task' })).toBeVisible()
  await page.getByLabel('Title').fill(first)
  await page.getByLabel('Priority').selectOption('high')
  await page.getByRole('button', { name: 'Create task' }).click()

  // Step 3: share it.
  await expect(page).toHaveURL(/\/onboarding\?step=share$/)
  await expect(page.getByText(first)).toBeVisible()
  await page.getByLabel('Share with (e-mail addresses)').fill(colleague.email)
  await page.getByRole('button', { name: 'Share and continue' }).click()

  // Step 4: where to go next, then the dashboard.
  await expect(page).toHaveURL(/\/onboarding\?step=explore$/)
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name: 'AI Chat' })).toHaveAttribute('href', '/chat')
  await expect(main.getByRole('link', { name: 'Docs' })).toHaveAttribute('href', '/docs')
  await page.getByRole('button', { name: 'Go to my dashboard' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome back, Ada Newcomer' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Get started' })).toHaveCount(0)
  const zone = javaScriptEnabled ? 'America/New_York' : 'UTC'
  await expect(page.getByText(`Days and weeks in ${zone}, from Monday.`)).toBeVisible()

  // Finished onboarding is not offered again.
  await page.goto('/onboarding')
  await expect(page).toHaveURL(/\/dashboard$/)

  await expect(stat(page, 'Tasks')).toHaveText('1')
  await expect(stat(page, 'Completion rate')).toHaveText('0%')
  await expect(chartCell(page, 'Tasks by priority', 'High')).toHaveText('1')
  await expect(chartCell(page, 'Tasks by status', 'Done')).toHaveText('0')
  await expect(
    page.getByText('You have not completed a task this week or last week yet.').first(),
  ).toBeVisible()

  // Complete the task from the dashboard's own link to it: the modal opens over the dashboard.
  await page.getByRole('link', { name: first }).first().click()
  await expect(page).toHaveURL(/\/dashboard\?task=/)
  await modalReady(page, javaScriptEnabled)
  const dialog = modal(page)
  await dialog.getByLabel('Status').selectOption('Completed')
  await dialog.getByRole('button', { name: 'Update status' }).click()
  await expect(dialog.locator('[data-status]')).toHaveText('Done')

  // The numbers and charts behind the modal changed with it.
  await expect(stat(page, 'Completion rate')).toHaveText('100%')
  await expect(stat(page, 'Completed this week')).toHaveText('1')
  await expect(chartCell(page, 'Tasks by status', 'Done')).toHaveText('1')
  await expect(chartCell(page, 'Hours completed per week', '')).toHaveCount(8)
  await expect(
    page.getByText('You completed 1 task this week, 1 more than last week.').first(),
  ).toBeAttached()
  const days = chartCell(page, 'Completions per day', '')
  await expect(days).toHaveCount(30)
  await expect(days.last()).toHaveText('1')
})

test('another person’s status change on a shared task reaches the open dashboard by push, without a reload', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, 'without JavaScript a page changes only when it is loaded again')
  const [owner, colleague] = await Promise.all([newPerson('Hal'), newPerson('Ivy')])
  const { id } = await createTaskThroughApi(owner, {
    text: uniqueTitle('Proofread the release notes', testInfo.project.name),
    sharedWith: [colleague.email],
  })
  const page = await pageFor(owner)
  await page.goto('/dashboard')
  await expect(stat(page, 'Completion rate')).toHaveText('0%')
  // Marks the document: a reload would lose it.
  await page.evaluate(() => document.body.setAttribute('data-loaded-once', ''))

  const token = await colleague.client.csrf()
  const changed = await colleague.client.post(
    '/api/rpc/task/setStatus',
    { json: { json: { taskId: id, status: 'Completed' } } },
    { 'x-csrf-token': token },
  )
  expect(changed.status).toBe(200)

  // The task stream brings the change; nobody touches the page.
  await expect(stat(page, 'Completion rate')).toHaveText('100%', { timeout: 3_000 })
  await expect(chartCell(page, 'Tasks by status', 'Done')).toHaveText('1')
  await expect(page.locator('body[data-loaded-once]')).toHaveCount(1)
})

test.describe('dashboard and onboarding: no serious or critical accessibility violations', () => {
  skipWithoutJavaScript()
  test.describe.configure({ timeout: 120_000 })

  for (const theme of THEMES) {
    test(`${theme} theme, wide and at 375 px`, async ({ newPerson, pageFor }, testInfo) => {
      const project = `${testInfo.project.name}-${theme}`
      const [owner, colleague] = await Promise.all([newPerson('Dana'), newPerson('Eli')])
      await createTaskThroughApi(owner, {
        text: uniqueTitle('Draft the plan', project),
        priority: 'high',
        hrs: 3,
      })
      await createTaskThroughApi(owner, {
        text: uniqueTitle('Ship it', project),
        priority: 'low',
        status: 'Completed',
        hrs: 2,
      })
      await createTaskThroughApi(colleague, {
        text: uniqueTitle('Review', project),
        sharedWith: [owner.email],
      })

      const page = await pageFor(owner, { theme })
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 375, height: 812 },
      ]) {
        await page.setViewportSize(viewport)
        await page.goto('/dashboard')
        await expectTheme(page, theme)
        await baseExpect(page.getByRole('img', { name: 'Tasks by status' })).toBeVisible()
        await expectNoSeriousA11yViolations(page, `/dashboard at ${viewport.width} px`)
        // Nothing wider than the phone's screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, `horizontal overflow at ${viewport.width} px`).toBeLessThanOrEqual(0)
        for (const step of ['profile', 'task', 'share', 'explore']) {
          await page.goto(`/onboarding?step=${step}`)
          await expectNoSeriousA11yViolations(page, `/onboarding?step=${step} at ${viewport.width} px`)
        }
      }

      const newcomer = await pageFor(await newPerson('Fay'), { theme })
      await newcomer.setViewportSize({ width: 375, height: 812 })
      await newcomer.goto('/dashboard')
      await expect(newcomer.getByRole('heading', { name: 'No tasks yet' })).toBeVisible()
      await expectNoSeriousA11yViolations(newcomer, '/dashboard, empty, at 375 px')
    })
  }
})
