import type { Page } from '@playwright/test'
import { startTlsProxy, type TlsProxy } from '../fixtures/tls-proxy'
import { freePort } from '../helpers/free-port'
import { type Running, startServer, stopServer, waitUntilListening } from './app-process'
import { expect, test } from './fixtures'
import { SCRYPT_WAIT } from './sign-up'
import { uniqueAddress } from './unique'

/**
 * Production on Fly: the browser speaks https to a proxy that speaks http to the app. Every form
 * must work there, with JavaScript on and off: the app has to see its public https origin, or the
 * browser's `Origin: https://…` looks cross-site and each post is refused. Two ways the app learns
 * it: BASE_URL (the proxy keeps the Host), or X-Forwarded-Proto/-Host behind a trusted proxy.
 */

const PASSWORD = 'behind the proxy'

const setups = [
  { name: 'BASE_URL names the https origin', trustProxy: false, rewriteHost: false },
  { name: 'a trusted proxy forwards the https origin', trustProxy: true, rewriteHost: true },
]

for (const setup of setups) {
  test.describe(setup.name, () => {
    test.describe.configure({ mode: 'serial' })
    let app: Running
    let proxy: TlsProxy

    test.beforeAll(async () => {
      const port = await freePort()
      const publicOrigin = `https://127.0.0.1:${port}`
      app = await startServer({
        BASE_URL: publicOrigin,
        TRUST_PROXY: String(setup.trustProxy),
        LOG_REQUESTS: 'false',
      })
      await waitUntilListening(app)
      proxy = await startTlsProxy(app.origin, { port, rewriteHost: setup.rewriteHost })
    })

    test.afterAll(async () => {
      await proxy?.close()
      if (app) await stopServer(app)
    })

    test('sign-up, a task, the theme, sign-out and sign-in all go through', async ({
      playwright,
    }, testInfo) => {
      // A browser and a server of their own, and two real scrypt hashes: 38–45 s in a full CI run
      // on two cores, past the default 45 s at times.
      test.setTimeout(120_000)
      // A browser of its own that accepts the proxy's self-signed certificate from the first
      // request on (a context's ignoreHTTPSErrors alone let the first navigation fail at times).
      const { launchOptions } = testInfo.project.use
      const browser = await playwright.chromium.launch({
        ...launchOptions,
        args: [...(launchOptions?.args ?? []), '--ignore-certificate-errors'],
      })
      const context = await browser.newContext({
        baseURL: proxy.origin,
        ignoreHTTPSErrors: true,
        javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
      })
      const page = await context.newPage()
      const name = 'Proxy Person'
      const email = uniqueAddress('proxy', testInfo.project.name)

      await page.goto('/signup')
      await page.getByLabel('Name').fill(name)
      await page.getByLabel('E-mail').fill(email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Create account' }).click()
      // A new account is guided to onboarding first.
      await expect(page.getByRole('heading', { name: 'Confirm your name and avatar' })).toBeVisible(
        SCRYPT_WAIT,
      )
      const session = (await context.cookies()).find((cookie) => cookie.name === 'tw_session')
      expect(session?.secure).toBe(true)

      await page.goto('/task')
      const form = page.getByRole('region', { name: 'New task' })
      await form.getByLabel('Title').fill('Ship through the proxy')
      await form.getByRole('button', { name: 'Create task' }).click()
      await expect(
        page.getByRole('dialog').getByRole('heading', { name: 'Ship through the proxy' }),
      ).toBeVisible()

      await page.goto('/')
      const dark = await isDark(page)
      await page.getByRole('banner').locator('form[action="/resources/theme"] button').click()
      await expect.poll(() => isDark(page)).toBe(!dark)

      await page.locator('button[popovertarget="account-menu"]').click()
      await page.getByRole('button', { name: 'Sign Out' }).click()
      await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible()

      await page.goto('/login?redirect=/task')
      await page.getByLabel('E-mail').fill(email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Task List' })).toBeVisible(SCRYPT_WAIT)
      await expect(page.getByRole('link', { name: 'Ship through the proxy', exact: true })).toBeVisible()
      await browser.close()
    })

    test('a cross-site post is refused with the CSRF answer, not a bare 400', async ({
      request,
    }, testInfo) => {
      test.skip(!testInfo.project.use.javaScriptEnabled, 'no browser involved; runs once')
      const response = await request.post(`${proxy.origin}/login`, {
        headers: { Origin: 'https://evil.example' },
        form: { email: 'a@example.com', password: 'x' },
        ignoreHTTPSErrors: true,
        maxRedirects: 0,
      })
      expect(response.status()).toBe(403)
      expect(await response.text()).toContain('Invalid CSRF token')
    })
  })
}

async function isDark(page: Page) {
  return page.evaluate(() => document.documentElement.classList.contains('dark'))
}
