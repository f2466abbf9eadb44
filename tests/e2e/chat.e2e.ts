import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { group, row } from './task-page'

/**
 * The AI chat in a browser, against the built-in assistant (no model is configured in the browser
 * suite, and no test reaches the internet). The server types at 40 ms a word, so a journey can
 * stop an answer or reload in the middle of one.
 */

const HELP_START = 'I answer from your tasks and the docs.'
const HELP_END = 'See the AI docs.'

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' })
const answers = (page: Page) => page.locator('[data-role="assistant"]')

async function ask(page: Page, text: string) {
  await composer(page).fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'streaming needs JavaScript')

  test('ask → the answer streams → stop keeps what was written → regenerate answers in full', async ({
    signedInPage: page,
  }) => {
    await page.goto('/chat')
    await expect(page.getByText('Built-in assistant: no AI model is connected.')).toBeVisible()
    await composer(page).fill('Hello there')
    await composer(page).press('Enter')
    await expect(page.getByText('Hello there', { exact: true })).toBeVisible()
    await expect(answers(page).first()).toContainText('I answer from')
    await expect(page).toHaveURL(/\/chat\/[\w-]+$/)
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible()
    const partial = (await answers(page).first().textContent()) ?? ''
    await page.waitForTimeout(1000)
    await expect(answers(page).first()).toHaveText(partial)
    expect(partial).not.toContain(HELP_END)

    await page.getByRole('button', { name: 'Regenerate' }).click()
    await expect(answers(page).first()).toContainText(HELP_END, { timeout: 15_000 })
    // Saved as it happened: the chat is in the sidebar, titled from the first message.
    await expect(
      page
        .getByRole('navigation', { name: 'Saved chats' })
        .getByRole('link', { name: 'Hello there' })
        .filter({ visible: true }),
    ).toBeVisible()
  })

  test('reloading in the middle of an answer replays it and follows it to the end', async ({
    signedInPage: page,
  }) => {
    await page.goto('/chat')
    await ask(page, 'Hi')
    await expect(answers(page).first()).toContainText('I answer from')
    await page.reload()
    await expect(answers(page).first()).toContainText(HELP_START)
    await expect(answers(page).first()).toContainText(HELP_END, { timeout: 15_000 })
  })

  test('approve a task creation, then find the task in the task list', async ({ signedInPage: page }) => {
    await page.goto('/chat')
    await ask(page, 'Create a task called Water the plants')
    const approval = page.getByRole('group', { name: 'Approval needed' })
    await expect(approval).toContainText(
      'Create the task “Water the plants” (priority: medium, status: Not Started, hrs: 1, isPublic: false).',
    )
    await approval.getByRole('button', { name: 'Approve' }).click()
    await expect(answers(page).first()).toContainText('Created Water the plants', { timeout: 15_000 })
    await page.goto('/task')
    await expect(row(group(page, 'My tasks'), 'Water the plants')).toBeVisible()
  })

  test('the chat page has no serious accessibility findings and breaks no CSP rule', async ({
    signedInPage: page,
  }) => {
    // The AI SDK builds zod schemas in the browser; nothing of it may need eval.
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    await page.goto('/chat')
    await ask(page, 'How many tasks do I have?')
    await expect(answers(page).first()).toContainText('You have no tasks yet.', { timeout: 15_000 })
    await expectNoSeriousA11yViolations(page)
    expect(violations).toEqual([])
  })
})

test('without JavaScript, the form posts the message and the page shows the complete answer', async ({
  signedInPage: page,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, 'the form chat is the page without JavaScript')
  await page.goto('/chat')
  await ask(page, 'What is in progress?')
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/)
  await expect(answers(page).first()).toContainText('You have no tasks in “In Progress”.')

  await ask(page, 'Create a task called Call the plumber')
  await page.getByRole('button', { name: 'Approve' }).click()
  await expect(answers(page).last()).toContainText('Created Call the plumber')
})

test('a public chat is read by a signed-out visitor; a private one is not found for others', async ({
  signedInPage: page,
  pageFor,
  newPerson,
  javaScriptEnabled,
}) => {
  await page.goto('/chat')
  await ask(page, 'How many tasks do I have?')
  await expect(answers(page).first()).toContainText('You have no tasks yet.', { timeout: 15_000 })
  const chatId = page.url().split('/').pop() ?? ''
  if (javaScriptEnabled) await page.reload()

  const stranger = await pageFor(await newPerson('Grace'))
  const privateAnswer = await stranger.goto(`/saved-chats/${chatId}`)
  expect(privateAnswer?.status()).toBe(404)

  await page.goto(`/saved-chats/${chatId}`)
  await page.getByLabel('Public: anyone with the link can read it').check()
  await page.getByRole('button', { name: 'Save sharing' }).click()
  await expect(page.getByText('Public', { exact: true })).toBeVisible()

  const visitor = await pageFor('visitor')
  const publicAnswer = await visitor.goto(`/saved-chats/${chatId}`)
  expect(publicAnswer?.status()).toBe(200)
  await expect(visitor.getByRole('heading', { name: 'How many tasks do I have?' })).toBeVisible()
  await expect(visitor.getByText('You have no tasks yet.')).toBeVisible()
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
  await expect(visitor.getByRole('button', { name: 'Save sharing' })).toHaveCount(0)
})
