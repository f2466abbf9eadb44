import type { BrowserContext, Page } from '@playwright/test'
import { type OAuthTestIdentity, oauthIdentityCookie } from '../fixtures/oauth-provider'
import { expect, test } from './fixtures'

/**
 * GitHub and Google sign-in in a real browser against the local provider (started by
 * oauth-provider.setup.ts), with JavaScript on and off: the button's POST, the redirect to the
 * provider (which the CSP's form-action must allow), the callback and the session.
 */

const providerOrigin = `http://localhost:${process.env.E2E_OAUTH_PORT}`

const PROVIDERS = [
  { provider: 'github', label: 'GitHub' },
  { provider: 'google', label: 'Google' },
] as const

/** A person no other test (or project, or run) uses; the provider approves as them in this browser. */
async function signedInAtProvider(
  context: BrowserContext,
  provider: 'github' | 'google',
  overrides: Partial<OAuthTestIdentity> = {},
) {
  const unique = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
  const who: OAuthTestIdentity = {
    id: unique,
    name: `${provider === 'github' ? 'Octo' : 'Goo'} ${unique.slice(-6)}`,
    email: `${provider}-${unique}@example.test`,
    ...overrides,
  }
  await context.addCookies([{ ...oauthIdentityCookie(provider, who), url: providerOrigin }])
  return who
}

/** CSP violations the browser reports; a blocked form redirect shows up here. */
function watchCsp(page: Page) {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

// The sign-in page's buttons, as a visitor uses them.
for (const { provider, label } of PROVIDERS) {
  test(`'Continue with ${label}' on /login ends signed in, a new account on /onboarding`, async ({
    page,
    context,
  }) => {
    const who = await signedInAtProvider(context, provider)
    const violations = watchCsp(page)

    await page.goto('/login')
    await page.getByRole('button', { name: `Continue with ${label}` }).click()

    await expect(page).toHaveURL(/\/onboarding$/)
    await expect(page.getByLabel('Name')).toHaveValue(who.name ?? '')
    expect(violations).toEqual([])
    const cookies = await context.cookies()
    expect(cookies.find((cookie) => cookie.name === 'tw_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    })
    // The flow's own cookies are gone once it is over.
    expect(cookies.filter((cookie) => cookie.name.startsWith('tw_oauth'))).toEqual([])
  })
}

test('a protected page sends a visitor through GitHub sign-in and back to it', async ({ page, context }) => {
  await signedInAtProvider(context, 'github')

  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings$/)
  await page.getByRole('button', { name: 'Continue with GitHub' }).click()

  await expect(page).toHaveURL(/\/settings$/)
})

test('a sign-in link (GET) works too: Google, then onboarding for a new account, the dashboard after', async ({
  page,
  context,
}) => {
  const who = await signedInAtProvider(context, 'google')

  await page.goto('/login/google?redirect=%2Fdashboard')
  await expect(page).toHaveURL(/\/onboarding$/)
  await page.getByRole('button', { name: 'Skip setup' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: `Welcome back, ${who.name}` })).toBeVisible()

  // Signing in again, the account is not new: straight to the dashboard.
  await context.clearCookies({ name: 'tw_session' })
  await page.goto('/login/google?redirect=%2Fdashboard')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('cancelling at the provider explains what happened and leads back to sign in', async ({
  page,
  context,
}) => {
  await signedInAtProvider(context, 'github', { deny: true })

  await page.goto('/login/github')

  await expect(page.getByRole('heading', { name: 'Could not sign in with GitHub' })).toBeVisible()
  await expect(page.getByText('Sign-in with GitHub was cancelled. Nothing was changed.')).toBeVisible()
  await page.getByRole('link', { name: 'Back to sign in' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect((await context.cookies()).some((cookie) => cookie.name === 'tw_session')).toBe(false)
})

for (const { provider, label } of PROVIDERS) {
  test(`after a cancelled sign-in, 'Continue with ${label}' on the message page signs in`, async ({
    page,
    context,
  }) => {
    await signedInAtProvider(context, provider, { deny: true })
    await page.goto(`/login/${provider}?redirect=%2Fsettings`)
    await expect(page.getByText(`Sign-in with ${label} was cancelled.`)).toBeVisible()

    // This time the person approves. The button POSTs (CSRF token and all) and the browser is
    // redirected to the provider, which the CSP's form-action must allow.
    await signedInAtProvider(context, provider)
    const violations = watchCsp(page)
    await page.getByRole('button', { name: `Continue with ${label}` }).click()

    await expect(page).toHaveURL(/\/settings$/)
    expect(violations).toEqual([])
  })
}
