import { expect, type Page, test } from '@playwright/test'
import { signUpThroughApi } from './api-client'
import { type Running, startServer, stopServer, waitUntilListening } from './app-process'
import { expectNoSeriousA11yViolations } from './axe'
import { uniqueAddress } from './unique'

/**
 * Passkeys in Chromium, with the DevTools protocol's virtual authenticator standing in for a
 * fingerprint reader: add one in /settings, sign out, sign in with it and no e-mail, remove it,
 * and it signs nobody in any more. Browsers refuse an IP address as a passkey's relying party, so
 * this journey has a server of its own whose BASE_URL is http://localhost:<port>.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'passkeys need JavaScript (the pages say so)')

let server: Running

test.beforeAll(async () => {
  server = await startServer({ LOG_REQUESTS: 'false' }, { publicHost: 'localhost' })
  await waitUntilListening(server)
})

test.afterAll(async () => {
  await stopServer(server)
})

/** A device that can hold passkeys and unlocks them for the person (user verification). */
async function addVirtualAuthenticator(page: Page) {
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

async function signOut(page: Page) {
  await page.locator('form#sign-out').evaluate((form) => (form as HTMLFormElement).requestSubmit())
  await expect(page).not.toHaveURL(/\/settings/)
}

test('add a passkey, sign out, sign in with it, remove it, and it no longer works', async ({ browser }) => {
  // Five page loads and three WebAuthn ceremonies on two shared cores.
  test.slow()
  const email = uniqueAddress('passkey', 'js-on')
  // The API client connects to the address the server listens on; the browser uses the host name.
  const client = await signUpThroughApi(server.origin.replace('localhost', '127.0.0.1'), {
    name: 'Ada',
    email,
    password: 'a passkey journey password',
  })
  const context = await browser.newContext({ baseURL: server.origin })
  await context.addCookies([
    { name: 'tw_session', value: client.cookies.get('tw_session') ?? '', url: server.origin, httpOnly: true },
  ])
  // Chromium's virtual authenticator may answer the e-mail field's autofill request by itself,
  // racing the button; this browser reports no autofill, so the button is what signs in.
  await context.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false
  })
  const page = await context.newPage()
  await addVirtualAuthenticator(page)

  // Added from /settings, named from the browser, never used yet.
  await page.goto('/settings')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await expect(page.getByRole('status')).toHaveText('Added “Passkey on Chrome on Linux”.')
  const row = page.getByTestId('passkey-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Passkey on Chrome on Linux')
  await expect(row).toContainText('Never used')
  await expectNoSeriousA11yViolations(page, 'settings with a passkey')

  // Signed out, back in with the passkey alone: the e-mail field offers it too.
  await signOut(page)
  await page.goto('/login?redirect=/settings')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('autocomplete', 'username webauthn')
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(row).toContainText('Last used')

  // Removed, it signs nobody in: the device still offers it, the server no longer knows it.
  await row.getByRole('button', { name: 'Remove Passkey on Chrome on Linux' }).click()
  await expect(page.getByText('No passkeys yet.')).toBeVisible()
  await signOut(page)
  await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByText('This passkey is not registered with Threadwork.')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings$/)
  await context.close()
})
