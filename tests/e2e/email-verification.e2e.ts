import { linkIn } from '../fixtures/smtp-server'
import { signUpThroughApi } from './api-client'
import { expect, test } from './fixtures'
import { waitForEmail } from './smtp-inbox'
import { uniqueAddress } from './unique'

/**
 * Sign up → the e-mail the app sent through real SMTP → its link → verified, with JavaScript on
 * and off. The links come out of the received messages, as a person would click them.
 */

const BANNER = 'Verify your e-mail address to receive shared tasks and mentions.'
const SUBJECT = 'Verify your e-mail address'

test('sign up → banner → resend → verify from the e-mail → signed in and verified', async ({
  pageFor,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  const email = uniqueAddress('verify', testInfo.project.name)
  // Signed up through /api/auth from an address of its own: browsers share 127.0.0.1, which is
  // allowed ten sign-ups an hour, docs/product-rules.md §2 (auth.e2e signs up through the page).
  const client = await signUpThroughApi(baseURL ?? '', {
    name: 'Vera',
    email,
    password: 'a long enough password',
  })
  const page = await pageFor({ client })
  await page.goto('/dashboard')
  const banner = page.getByRole('complementary', { name: 'E-mail verification' })
  await expect(banner).toContainText(BANNER)

  const welcome = await waitForEmail(email, SUBJECT)
  expect(welcome.text).toContain('Welcome, Vera!')
  expect(welcome.html).toContain('Verify e-mail address')

  // The banner's button sends a second link and comes back to the same page. The sign-up toast
  // sits over it (top right) for 4 s first; a pointer resting on a toast would keep it there.
  if (javaScriptEnabled) await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
  await banner.getByRole('button', { name: 'Resend verification e-mail' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(banner.getByRole('status')).toHaveText(
    `We sent a new link to ${email}. It works once, for 1 hour.`,
  )
  const resent = await waitForEmail(email, SUBJECT, 2)

  // Opening the link only shows the page; the button verifies, and signed in it lands on the dashboard.
  const link = linkIn(resent, '/email/verify-email')
  expect(link.origin).toBe(baseURL)
  await page.goto(link.href)
  await expect(page.getByRole('heading', { name: 'Verify your e-mail address' })).toBeVisible()
  await page.getByRole('button', { name: 'Verify e-mail address' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome back, Vera' })).toBeVisible()
  if (javaScriptEnabled) await expect(page.getByText('E-mail address verified')).toBeVisible()
  await expect(page.getByText(BANNER)).toHaveCount(0)

  // The link works once.
  await page.goto(link.href)
  await expect(page.getByRole('alert')).toHaveText('This verification link is invalid or has expired.')
  await page.getByRole('link', { name: 'Request a new verification link' }).click()
  await expect(page).toHaveURL(/\/email\/request-verification$/)
  await expect(page.getByText('Your e-mail address is already verified.')).toBeVisible()

  // The first e-mail's link, opened where nobody is signed in: success, and a way to sign in.
  const other = await pageFor('visitor')
  await other.goto(linkIn(welcome, '/email/verify-email').href)
  await other.getByRole('button', { name: 'Verify e-mail address' }).click()
  const card = other.getByRole('main')
  await expect(card.getByRole('status')).toContainText(`${email} is verified.`)
  await card.getByRole('link', { name: 'Sign In', exact: true }).click()
  await expect(other).toHaveURL(/\/login\?redirect=(%2F|\/)dashboard$/)
  await other.getByLabel('E-mail').fill(email)
  await other.getByLabel('Password').fill('a long enough password')
  await other.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(other).toHaveURL(/\/dashboard$/)
  await expect(other.getByText(BANNER)).toHaveCount(0)
})

test('a link without its token, or with a made-up one, explains itself', async ({ page }) => {
  const missing = await page.goto('/email/verify-email')
  expect(missing?.status()).toBe(400)
  await expect(page.getByRole('alert')).toHaveText('The verification link is missing its token.')

  const madeUp = await page.goto('/email/verify-email?token=made-up')
  expect(madeUp?.status()).toBe(400)
  await expect(page.getByRole('alert')).toHaveText('This verification link is invalid or has expired.')
})

test('asking for a new link while signed out goes through sign-in first', async ({ page }) => {
  await page.goto('/email/request-verification')
  await expect(page).toHaveURL(/\/login\?redirect=%2Femail%2Frequest-verification$/)
})

test('the development mailbox does not exist in production', async ({ page }) => {
  const response = await page.goto('/dev/mailbox')
  expect(response?.status()).toBe(404)
})
