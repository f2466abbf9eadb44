import type { Page } from '@playwright/test'

/**
 * After a password is checked or set: real scrypt on a server the other workers' tests keep busy,
 * seconds on a shared two-core machine (the default 10 s wait is not enough there).
 */
export const SCRYPT_WAIT = { timeout: 30_000 }

/**
 * Signs up through /signup as a person would and waits for onboarding, where a new account lands.
 * Every browser is 127.0.0.1 to the server, which allows ten sign-ups an hour from one address:
 * only journeys about signing up use this; the others get accounts from the `newPerson` fixture.
 * A refused sign-up fails here with the page's own message, not a bare wrong-URL timeout.
 */
export async function signUpInBrowser(
  page: Page,
  account: { name: string; email: string; password: string },
) {
  await page.goto('/signup')
  await page.getByLabel('Name').fill(account.name)
  await page.getByLabel('E-mail').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(/\/onboarding$/, SCRYPT_WAIT).catch(async (cause: unknown) => {
    const shown = await page
      .locator('main')
      .textContent()
      .catch(() => '')
    throw new Error(`sign-up stayed on ${page.url()}; the page says: ${(shown ?? '').replace(/\s+/g, ' ')}`, {
      cause,
    })
  })
}
