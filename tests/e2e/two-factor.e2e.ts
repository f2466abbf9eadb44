import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { totpAt } from './totp'

/**
 * Two-factor sign-in as a person meets it, with JavaScript on and off: set up in
 * /settings/two-factor from the secret shown beside the QR code, then a sign-in that stops on the
 * code page until the app's code is typed.
 */

const PASSWORD = 'e2e journey password'

test('two-factor sign-in is turned on in settings and then asked for at sign-in', async ({
  signedInPage: page,
  person,
  pageFor,
  javaScriptEnabled,
}) => {
  // Each password check is real scrypt, slow on a loaded machine: the steps get a minute each.
  test.setTimeout(300_000)
  const slow = { timeout: 60_000 }
  page.setDefaultTimeout(60_000)
  await page.goto('/settings/two-factor')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10, slow)
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  // axe runs as a script in the page: the JavaScript-off project checks the same server markup's use.
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page, 'two-factor setup')
  const secret = (await page.getByTestId('two-factor-secret').textContent())?.trim() ?? ''
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await page.getByLabel('Code from the app').fill(totpAt(secret, Date.now()))
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
  await expect(page.getByText('On. 10 of 10 recovery codes left.')).toBeVisible(slow)

  const visitor = await pageFor('visitor')
  visitor.setDefaultTimeout(60_000)
  await visitor.goto('/login')
  await visitor.getByLabel('E-mail').fill(person.email)
  await visitor.getByLabel('Password').fill(PASSWORD)
  await visitor.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(visitor).toHaveURL(/\/login\/two-factor$/, slow)
  const code = visitor.getByLabel('Code', { exact: true })
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
  await expect(code).toHaveAttribute('inputmode', 'numeric')
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(visitor, 'the code page')

  await code.fill('000000')
  await visitor.getByRole('button', { name: 'Verify' }).click()
  await expect(visitor.getByText('That code is not valid.', { exact: false })).toBeVisible(slow)
  await expect(visitor).toHaveURL(/\/login\/two-factor$/)

  // The next step's code: later than the one that confirmed the setup, and within the drift window.
  await visitor.getByLabel('Code', { exact: true }).fill(totpAt(secret, Date.now() + 30_000))
  await visitor.getByRole('button', { name: 'Verify' }).click()
  await expect(visitor).toHaveURL(/\/(dashboard|onboarding)/, slow)
  await visitor.goto('/settings')
  await expect(visitor.getByText('Signed in with Password + two-factor code')).toBeVisible()
})
