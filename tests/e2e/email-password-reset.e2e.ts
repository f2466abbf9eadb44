import { linkIn } from '../fixtures/smtp-server'
import { signUpThroughApi } from './api-client'
import { expect, test } from './fixtures'
import { SCRYPT_WAIT } from './sign-up'
import { emailsTo, waitForEmail } from './smtp-inbox'
import { uniqueAddress } from './unique'

/**
 * Forgot password → the e-mail → a new password, with JavaScript on and off: the same answer for
 * unknown addresses, every old session signed out, the new password working, the link used up.
 */

const ANSWER = 'If an account exists for that address, we sent a link to reset its password.'
const SUBJECT = 'Reset your Threadwork password'

test('forgot → reset from the e-mail → old sessions gone, the new password signs in', async ({
  pageFor,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  // Three real scrypt hashes (sign-up, the new password, sign-in) and two browsers: on a busy
  // two-core machine that alone can pass the default 45 s.
  test.setTimeout(120_000)
  // A signed-in "laptop": the session a reset must end. Signed up through /api/auth from an
  // address of its own: browsers share 127.0.0.1, which is allowed ten sign-ups an hour (§2 of
  // docs/product-rules.md).
  const email = uniqueAddress('reset', testInfo.project.name)
  const client = await signUpThroughApi(baseURL ?? '', { name: 'Reese', email, password: 'the old password' })
  const page = await pageFor({ client })

  // Another browser, signed out, forgot the password.
  const other = await pageFor('visitor')
  await other.goto('/login')
  await other.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(other).toHaveURL(/\/email\/forgot-password$/)

  // An unknown address gets exactly the same answer.
  const unknown = uniqueAddress('nobody', testInfo.project.name)
  await other.getByLabel('E-mail').fill(unknown)
  await other.getByRole('button', { name: 'Send reset link' }).click()
  await expect(other.getByRole('main').getByRole('status')).toContainText(ANSWER)
  const unknownAnswer = await other.getByRole('main').textContent()

  await other.getByRole('link', { name: 'Send another link' }).click()
  await other.getByLabel('E-mail').fill(email.toUpperCase())
  await other.getByRole('button', { name: 'Send reset link' }).click()
  await expect(other.getByRole('main').getByRole('status')).toContainText(ANSWER)
  expect(await other.getByRole('main').textContent()).toBe(unknownAnswer)

  const message = await waitForEmail(email, SUBJECT)
  const link = linkIn(message, '/email/reset-password')
  await other.goto(link.href)
  await other.getByLabel('New password', { exact: true }).fill('the new password')
  await other.getByLabel('Repeat the new password').fill('not the same')
  await other.getByRole('button', { name: 'Set new password' }).click()
  await expect(other.getByText('Passwords do not match')).toBeVisible()

  await other.getByLabel('New password', { exact: true }).fill('the new password')
  await other.getByLabel('Repeat the new password').fill('the new password')
  await other.getByRole('button', { name: 'Set new password' }).click()
  await expect(other).toHaveURL(/\/login$/, SCRYPT_WAIT)
  if (javaScriptEnabled) await expect(other.getByText('Password changed')).toBeVisible()
  await waitForEmail(email, 'Your Threadwork password was changed')

  // The laptop's session ended with the reset.
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)

  // The old password no longer works; the new one does.
  await other.getByLabel('E-mail').fill(email)
  await other.getByLabel('Password').fill('the old password')
  await other.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(other.getByText('Invalid e-mail or password.')).toBeVisible(SCRYPT_WAIT)
  await other.getByLabel('E-mail').fill(email)
  await other.getByLabel('Password').fill('the new password')
  await other.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(other).toHaveURL(/\/dashboard$/, SCRYPT_WAIT)
  await expect(other.getByRole('heading', { name: 'Welcome back, Reese' })).toBeVisible()

  // The link is used up.
  await other.goto(link.href)
  await expect(other.getByRole('alert')).toHaveText('This password reset link is invalid or has expired.')
  await other.getByRole('link', { name: 'Request a new reset link' }).click()
  await expect(other).toHaveURL(/\/email\/forgot-password$/)

  expect(emailsTo(unknown, SUBJECT)).toEqual([])
})

test('a reset link without its token explains itself', async ({ page }) => {
  const response = await page.goto('/email/reset-password')
  expect(response?.status()).toBe(400)
  await expect(page.getByRole('alert')).toHaveText('The password reset link is missing its token.')
  await expect(page.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute(
    'href',
    '/email/forgot-password',
  )
})
