import { expect, test } from './fixtures'

/*
 * The server in these tests sees every browser as 127.0.0.1, and the form allows five messages
 * an hour per address: keep successful submissions to one per project (two per run).
 */

test.describe('support', () => {
  test('shows the support address as a mail link', async ({ page }) => {
    await page.goto('/support')
    await expect(page.getByRole('link', { name: 'support@threadwork.dev' })).toHaveAttribute(
      'href',
      'mailto:support@threadwork.dev',
    )
  })

  test('invalid input: errors next to each field, and what was typed is kept', async ({ page }) => {
    await page.goto('/support')
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-address')
    await page.getByLabel('Message', { exact: true }).fill('short')
    await page.getByRole('button', { name: 'Send message' }).click()

    await expect(page.getByText('Please tell us your name')).toBeVisible()
    await expect(page.getByText('Please give a valid e-mail address')).toBeVisible()
    await expect(page.getByText('Please write at least 10 characters')).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('not-an-address')
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('short')
  })

  test('a valid message is sent and confirmed, and the form is empty again', async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto('/support')
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com')
    await page
      .getByLabel('Message', { exact: true })
      .fill(`Hello from the ${javaScriptEnabled ? 'js-on' : 'js-off'} browser test.`)
    await page.getByRole('button', { name: 'Send message' }).click()

    // With JavaScript the toast says it; without, the page does.
    const confirmation = javaScriptEnabled
      ? page.locator('[data-sonner-toast]').filter({ hasText: 'Message sent' })
      : page.getByRole('status').filter({ hasText: 'Message sent' })
    await expect(confirmation).toBeVisible()
    await expect(confirmation).toContainText('We will answer at ada@example.com')
    await expect(page).toHaveURL(/\/support$/)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('')
  })
})
