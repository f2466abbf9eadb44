import type { Locator, Page } from '@playwright/test'
import { signUpThroughApi } from './api-client'
import { expect, test } from './fixtures'
import { SCRYPT_WAIT, signUpInBrowser } from './sign-up'
import { uniqueAddress } from './unique'

/**
 * Getting in and out in a real browser, with JavaScript on and off: sign up, the account menu's
 * Sign Out, sign in with a redirect target, the protected-page redirect, a wrong password, and
 * revoking another device's session from settings.
 *
 * Every browser here is 127.0.0.1 to the server, which allows ten sign-ups an hour per address
 * (the e-mail tests sign up from there too): only the sign-up test signs up through the page;
 * other tests get their account from /api/auth on an address of their own (auth-client.ts).
 */

const PASSWORD = 'a long enough password'
// Sign-ups and sign-ins run real scrypt on a server shared with the other workers' tests.
test.describe.configure({ timeout: 120_000 })

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/**
 * Presses a settings form's button and waits until the server has answered the POST. Password
 * checks and changes run real scrypt on the server, which takes seconds on a busy machine.
 */
async function submitSettings(page: Page, button: Locator) {
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/settings'),
    { timeout: 45_000 },
  )
  await button.click()
  await answered
  await page.waitForLoadState()
}

test('sign up → guided to onboarding → skip it to the dashboard → Sign Out from the account menu → sign in again, back to /settings', async ({
  page,
  context,
}, testInfo) => {
  const email = uniqueAddress('signup', testInfo.project.name)
  const name = `Sam ${testInfo.project.name}`

  await signUpInBrowser(page, { name, email: email.toUpperCase(), password: PASSWORD })
  await expect(page.getByRole('heading', { name: 'Confirm your name and avatar' })).toBeVisible()
  await page.getByRole('button', { name: 'Skip setup' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: `Welcome back, ${name}` })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No tasks yet' })).toBeVisible()
  // Not verified yet: the banner asks for it.
  await expect(page.getByRole('complementary', { name: 'E-mail verification' })).toBeVisible()
  const session = (await context.cookies()).find((cookie) => cookie.name === 'tw_session')
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
  // 30 days, give or take the test's own duration.
  expect((session?.expires ?? 0) * 1000 - Date.now()).toBeGreaterThan(29.9 * 24 * 60 * 60 * 1000)

  // The signed-in header: the account menu, a native popover that works without JavaScript.
  const header = page.getByRole('banner')
  await expect(header.getByRole('link', { name: 'Sign In' })).toHaveCount(0)
  await header.getByRole('button', { name: `Account menu for ${name}` }).click()
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute('href', '/settings')
  await page.getByRole('button', { name: 'Sign Out' }).click()

  // Sign Out goes to /dashboard, which now asks the signed-out visitor to sign in.
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
  expect((await context.cookies()).some((cookie) => cookie.name === 'tw_session')).toBe(false)
  await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible()

  // Signing in again honours the redirect target.
  await page.goto('/login?redirect=/settings')
  await signIn(page, email)
  await expect(page).toHaveURL(/\/settings$/, SCRYPT_WAIT)
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
  await expect(page.getByRole('main').getByText(email, { exact: true })).toBeVisible()
})

test('protected pages send a visitor to sign in and back; the header links there too', async ({
  page,
  baseURL,
}, testInfo) => {
  const email = uniqueAddress('guard', testInfo.project.name)
  await signUpThroughApi(baseURL ?? '', { name: 'Guard', email, password: PASSWORD })

  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings$/)

  await page.goto('/')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toHaveAttribute(
    'href',
    '/login?redirect=%2Fdashboard',
  )

  // A foreign target is never followed.
  await page.goto('/login?redirect=//example.com/phish')
  await signIn(page, email)
  await expect(page).toHaveURL(/\/dashboard$/, SCRYPT_WAIT)
  await expect(page.getByRole('heading', { name: 'Welcome back, Guard' })).toBeVisible()

  // Signed in, the sign-in page sends you on.
  await page.goto('/login?redirect=/settings')
  await expect(page).toHaveURL(/\/settings$/)
})

test('a wrong password says "Invalid e-mail or password." and keeps the address', async ({
  page,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  const email = uniqueAddress('wrong', testInfo.project.name)
  await signUpThroughApi(baseURL ?? '', { name: 'Wren', email, password: PASSWORD })

  await page.goto('/login')
  await signIn(page, email, 'not the password')

  await expect(page.getByText('Invalid e-mail or password.')).toBeVisible(SCRYPT_WAIT)
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByLabel('E-mail')).toHaveValue(email)
  // The server never sends the password back (with JavaScript the field simply keeps its text).
  if (!javaScriptEnabled) await expect(page.getByLabel('Password')).toHaveValue('')
})

test('revoking another device from settings signs that device out on its next page', async ({
  page,
  pageFor,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  const email = uniqueAddress('revoke', testInfo.project.name)
  await signUpThroughApi(baseURL ?? '', { name: 'Rev', email, password: PASSWORD })

  // A phone, signed in as the same person.
  const phone = await pageFor('visitor')
  await phone.goto('/login?redirect=/dashboard')
  await signIn(phone, email)
  await expect(phone).toHaveURL(/\/dashboard$/, SCRYPT_WAIT)

  // The laptop signs in and opens settings: three sessions (the API's, the phone's, this one).
  await page.goto('/login?redirect=/settings')
  await signIn(page, email)
  await expect(page).toHaveURL(/\/settings$/, SCRYPT_WAIT)
  const rows = page.getByTestId('session-row')
  await expect(rows).toHaveCount(3)
  const thisDevice = rows.filter({ hasText: 'This device' })
  await expect(thisDevice).toHaveCount(1)

  // The API's session has no browser behind it; the phone's is Chrome, like this one.
  await expect(rows.filter({ hasText: 'Unknown device' })).toHaveCount(1)
  const phoneRow = rows.filter({ hasText: 'Chrome' }).filter({ hasNotText: 'This device' })
  await expect(phoneRow).toHaveCount(1)
  await phoneRow.getByRole('button', { name: /^Revoke .* session$/ }).click()
  await expect(page).toHaveURL(/\/settings$/)
  if (javaScriptEnabled) await expect(page.getByText('Session revoked')).toBeVisible()
  await expect(rows).toHaveCount(2)

  // The phone finds out on its next navigation.
  await phone.goto('/dashboard')
  await expect(phone).toHaveURL(/\/login\?redirect=%2Fdashboard$/)

  // "Sign out other devices" ends the rest; this one stays.
  await page.getByRole('button', { name: 'Sign out other devices' }).click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('This device')
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: 'Welcome back, Rev' })).toBeVisible()
})

test('settings: change the password, then delete the account', async ({
  pageFor,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000)
  const email = uniqueAddress('leaver', testInfo.project.name)
  const api = await signUpThroughApi(baseURL ?? '', { name: 'Lee', email, password: PASSWORD })
  // The browser comes back with the session the sign-up started (no sign-in from 127.0.0.1).
  const page = await pageFor({ client: api })
  await page.goto('/settings')
  const password = page.getByRole('region', { name: 'Password' })
  const deletion = page.getByRole('region', { name: 'Delete account' })

  // A wrong current password is refused with a message.
  await password.getByLabel('Current password').fill('not the password')
  await password.getByLabel('New password', { exact: true }).fill('a brand new password')
  await password.getByLabel('Repeat new password').fill('a brand new password')
  await submitSettings(page, password.getByRole('button', { name: 'Change password' }))
  await expect(password.getByText('Current password is incorrect.')).toBeVisible()

  await password.getByLabel('Current password').fill(PASSWORD)
  await password.getByLabel('New password', { exact: true }).fill('a brand new password')
  await password.getByLabel('Repeat new password').fill('a brand new password')
  await submitSettings(page, password.getByRole('button', { name: 'Change password' }))
  if (javaScriptEnabled) await expect(page.getByText('Password changed')).toBeVisible()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(password.getByText('Current password is incorrect.')).toHaveCount(0)
  // This device stays signed in.
  await expect(page.getByTestId('session-row')).toHaveCount(1)

  // Deleting needs the (new) password.
  await deletion.getByLabel('Confirm with your password').fill(PASSWORD)
  await submitSettings(page, deletion.getByRole('button', { name: 'Delete my account' }))
  await expect(deletion.getByText('Password is incorrect; the account was not deleted.')).toBeVisible()

  await deletion.getByLabel('Confirm with your password').fill('a brand new password')
  await submitSettings(page, deletion.getByRole('button', { name: 'Delete my account' }))
  await expect(page).toHaveURL(/\/$/)
  if (javaScriptEnabled) await expect(page.getByText('Your account was deleted')).toBeVisible()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible()
  expect((await page.context().cookies()).some((cookie) => cookie.name === 'tw_session')).toBe(false)

  // The account is gone: its password opens nothing.
  const token = await api.csrf()
  const signIn = await api.post(
    '/api/auth/sign-in/email',
    { json: { email, password: 'a brand new password' } },
    { 'x-csrf-token': token },
  )
  expect(signIn.status).toBe(401)
})
