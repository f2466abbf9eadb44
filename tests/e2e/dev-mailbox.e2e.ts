import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers/free-port'
import { expect, test } from './fixtures'

/**
 * /dev/mailbox exists only outside production, and the run's server is a production one; so this
 * file starts the same build once more in development mode, with no SMTP (e-mails are logged and
 * kept in the outbox), and checks in Chromium that an e-mail's HTML renders in its sandboxed
 * srcdoc iframe under the app's Content-Security-Policy, which such an iframe inherits.
 */

test.describe.configure({ mode: 'serial', timeout: 90_000 })

let server: ChildProcess | undefined
let origin = ''
let dataDir = ''

test.beforeAll(async () => {
  test.setTimeout(60_000)
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-dev-mailbox-'))
  const { SMTP_URL: _ignored, ...inherited } = process.env
  server = spawn(process.execPath, ['server.js'], {
    env: {
      ...inherited,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: origin,
      DATABASE_URL: `file:${join(dataDir, 'app.db')}`,
      LOG_REQUESTS: 'false',
    },
    // Its log would be every e-mail's text; errors still show.
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await expect
    .poll(async () => (await fetch(`${origin}/healthz`).catch(() => null))?.status, { timeout: 45_000 })
    .toBe(200)
})

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

test('shows a sign-up e-mail: its HTML rendered in a sandboxed frame, its link clickable', async ({
  page,
}, testInfo) => {
  const violations: string[] = []
  page.on('console', (message) => {
    // Only the CSP: "Blocked script execution in 'about:srcdoc'" is the sandbox doing its job.
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  const email = `mailbox-${testInfo.project.name}-${Date.now()}@example.test`
  await page.goto(`${origin}/signup`)
  await page.getByLabel('Name').fill('Mae')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('a long enough password')
  await page.getByRole('button', { name: 'Create account' }).click()
  // Hashing the password is slow by design, and two app servers share two small cores here.
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 30_000 })

  const response = await page.goto(`${origin}/dev/mailbox`)
  expect(response?.headers()['content-security-policy']).toContain("default-src 'self'")
  const item = page.getByRole('listitem').filter({ hasText: `to ${email}` })
  await expect(item).toContainText('Verify your e-mail address')
  await expect(item).toContainText(/sent|pending/)

  const frame = item.locator('iframe')
  await expect(frame).toHaveAttribute('sandbox', '')
  const html = frame.contentFrame()
  await expect(html.getByRole('heading', { name: 'Welcome, Mae!' })).toBeVisible()
  await expect(html.getByRole('link', { name: 'Verify e-mail address' })).toBeVisible()
  // The e-mail's inline styles apply (style-src allows them): its button is the brand colour.
  await expect(html.getByRole('link', { name: 'Verify e-mail address' })).toHaveCSS(
    'background-color',
    'rgb(79, 70, 229)',
  )

  await item.getByRole('link', { name: /\/email\/verify-email\?token=/ }).click()
  await expect(page.getByRole('button', { name: 'Verify e-mail address' })).toBeVisible()
  expect(violations).toEqual([])
})
