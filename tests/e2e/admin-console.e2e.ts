import { adminAddress } from './admin-address'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test, verifiedPerson } from './fixtures'

/**
 * The admin console as an operator uses it, with JavaScript on and off: find a customer, sign in
 * as them (the banner says so, Stop brings the admin back), disable the account (the customer's
 * own browser is signed out), and read all of it in the audit log. axe checks each page where
 * scripts run (a person's page, a page under the banner, and the log in the dark theme on a
 * phone's width).
 */

test('an admin helps a customer, disables them, and every step is on record', async ({
  baseURL,
  pageFor,
  newPerson,
  javaScriptEnabled,
}, testInfo) => {
  // Two sign-ups verified by e-mail, three browsers, a dozen pages and three axe runs: on two
  // shared cores this takes well over the default 45 s.
  test.setTimeout(240_000)
  const project = testInfo.project.name
  const admin = await verifiedPerson(baseURL ?? '', 'Root', project, adminAddress(project))
  const customer = await newPerson('Customer')
  const page = await pageFor(admin)
  const checkA11y = async () => {
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)
  }

  await page.goto('/admin')
  await page.getByLabel('Name or e-mail').fill(customer.email)
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('link', { name: 'Customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Customer' })).toBeVisible()
  await checkA11y()

  await page.getByRole('button', { name: 'Sign in as this person' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  const banner = page.getByRole('complementary', { name: 'Support session' })
  await expect(banner).toContainText(customer.email)
  await checkA11y()
  await banner.getByRole('button', { name: 'Stop signing in as Customer' }).click()
  await expect(page).toHaveURL(/\/admin\/people\//)
  await expect(banner).toHaveCount(0)

  const theirs = await pageFor(customer)
  await theirs.goto('/dashboard')
  await expect(theirs).toHaveURL(/\/dashboard$/)
  await page.getByRole('button', { name: 'Disable account' }).click()
  await expect(page.getByText(/^Disabled/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Enable account' })).toBeVisible()
  await theirs.goto('/dashboard')
  await expect(theirs).toHaveURL(/\/login\?redirect=%2Fdashboard$/)

  const phone = await pageFor(admin, { theme: 'dark' })
  await phone.setViewportSize({ width: 390, height: 844 })
  await phone.goto('/admin/audit')
  const rows = phone.getByTestId('audit-row').filter({ hasText: customer.email })
  await expect(rows).toHaveText([/disable/, /stop-sign-in-as/, /sign-in-as/])
  await expect(rows.first()).toContainText(admin.email)
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(phone)
})

test('a customer gets the 404 page on the console', async ({ signedInPage }) => {
  const answer = await signedInPage.goto('/admin')
  expect(answer?.status()).toBe(404)
  await expect(signedInPage.getByRole('button', { name: 'Search' })).toHaveCount(0)
})
