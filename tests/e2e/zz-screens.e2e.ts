import { expect, test } from './fixtures'

test('screens', async ({ pageFor, person, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled)
  for (const [name, width, theme] of [
    ['mobile-dark', 375, 'dark'],
    ['desktop-light', 1280, 'light'],
  ] as const) {
    const page = await pageFor(person, { theme })
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/chat')
    await page.getByRole('textbox', { name: 'Message' }).fill('Create a task called Water the plants')
    await page.getByRole('textbox', { name: 'Message' }).press('Enter')
    await expect(page.getByText('Approval needed')).toBeVisible({ timeout: 15000 })
    await page.screenshot({ path: `/tmp/s12-${name}-approval.png`, fullPage: true })
    await page.getByRole('button', { name: 'Approve' }).click()
    await expect(page.getByText('Created')).toBeVisible({ timeout: 15000 })
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('What do the docs say about the built-in assistant?')
    await page.getByRole('textbox', { name: 'Message' }).press('Enter')
    await page.waitForTimeout(6000)
    await page.screenshot({ path: `/tmp/s12-${name}-chat.png`, fullPage: true })
    await page.goto('/saved-chats')
    await page.screenshot({ path: `/tmp/s12-${name}-saved.png`, fullPage: true })
  }
})
