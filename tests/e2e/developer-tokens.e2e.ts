import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'

/**
 * A person makes a personal API token in /settings/developer, with JavaScript on and off: it is
 * shown once, works against /api/rpc as a bearer, is listed with its access, and once revoked
 * opens nothing.
 */

// Signing up with real scrypt on two shared cores, then axe: slower than most journeys.
test.describe.configure({ timeout: 150_000 })

test('create a token, use it, revoke it', async ({ signedInPage: page, baseURL, javaScriptEnabled }) => {
  await page.goto('/settings/developer')
  await expect(page.getByRole('heading', { name: 'Developer settings' })).toBeVisible()
  await page.getByLabel('Name').fill('Release script')
  await page.getByLabel('Access').selectOption('read')
  await page.getByLabel('Expires').selectOption('30')
  await page.getByRole('button', { name: 'Create token' }).click()

  const field = page.getByRole('textbox', { name: 'New token' })
  await expect(field).toHaveValue(/^tw_pat_/)
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible()
  const token = await field.inputValue()
  const row = page.getByTestId('token-row').filter({ hasText: 'Release script' })
  await expect(row).toContainText('Read only')
  await expect(row).toContainText('Last used never')
  // axe runs as a script in the page, as in every journey: with JavaScript on.
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page, 'developer settings with a new token')

  const call = () =>
    fetch(`${baseURL}/api/rpc/task/getAll`, { headers: { Authorization: `Bearer ${token}` } })
  expect((await call()).status).toBe(200)

  await page.goto('/settings/developer')
  await expect(page.getByRole('textbox', { name: 'New token' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Revoke Release script' }).click()
  await expect(page.getByText('You have no tokens yet.')).toBeVisible()
  expect((await call()).status).toBe(401)
})
