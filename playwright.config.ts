import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { ADMIN_ADDRESSES } from './tests/e2e/admin-address'
import { CHECKOUT_ENV, STRIPE_OPTIONS } from './tests/e2e/marketing-checkout'
import { oauthTestProviderEnv } from './tests/fixtures/oauth-provider'
import { stripeStandInEnv } from './tests/fixtures/stripe-api'
import { freePort } from './tests/helpers/free-port'

/**
 * Browser tests run the BUILT app (`npm test` builds first), as production serves it, on a free
 * port with a database of its own, in Chromium with JavaScript on and again with it off.
 */

// Playwright evaluates this file in the runner and again in every worker. The runner's choice is
// kept in the environment, which workers inherit, so every process talks to the same server.
process.env.E2E_PORT ??= String(await freePort())
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'e2e-'))
// The local OAuth provider's port (see tests/e2e/oauth-provider.setup.ts), chosen the same way.
while (!process.env.E2E_OAUTH_PORT || process.env.E2E_OAUTH_PORT === process.env.E2E_PORT) {
  process.env.E2E_OAUTH_PORT = String(await freePort())
}
// The local SMTP server's port (see tests/e2e/smtp-server.setup.ts), chosen the same way.
while (
  !process.env.E2E_SMTP_PORT ||
  [process.env.E2E_PORT, process.env.E2E_OAUTH_PORT].includes(process.env.E2E_SMTP_PORT)
) {
  process.env.E2E_SMTP_PORT = String(await freePort())
}
// The Stripe stand-in's port (see tests/e2e/stripe-api.setup.ts), chosen the same way.
while (
  !process.env.E2E_STRIPE_PORT ||
  [process.env.E2E_PORT, process.env.E2E_OAUTH_PORT, process.env.E2E_SMTP_PORT].includes(
    process.env.E2E_STRIPE_PORT,
  )
) {
  process.env.E2E_STRIPE_PORT = String(await freePort())
}

const port = Number(process.env.E2E_PORT)
const baseURL = `http://127.0.0.1:${port}`
const isCI = Boolean(process.env.CI)

export default defineConfig({
  testDir: 'tests/e2e',
  // Not *.test.ts / *.spec.ts, so vitest's default glob never picks up browser tests.
  testMatch: '**/*.e2e.ts',
  globalSetup: [
    './tests/e2e/oauth-provider.setup.ts',
    './tests/e2e/smtp-server.setup.ts',
    './tests/e2e/better-auth-client.setup.ts',
    './tests/e2e/stripe-api.setup.ts',
  ],
  globalTeardown: './tests/e2e/global-teardown.ts',
  // Two slow shared cores run the server, the browser and the tests at once.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  workers: 2,
  reporter: isCI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'js-on', use: { browserName: 'chromium', javaScriptEnabled: true } },
    { name: 'js-off', use: { browserName: 'chromium', javaScriptEnabled: false } },
  ],
  webServer: {
    command: 'node server.js',
    url: `${baseURL}/healthz`,
    // Always a fresh server: an old one would carry another run's database and build.
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${join(process.env.E2E_DATA_DIR, 'app.db')}`,
      NODE_ENV: 'production',
      LOG_REQUESTS: 'false',
      // One process on two cores shared with Chromium; tests/e2e/cluster.e2e.ts starts clusters.
      WEB_CONCURRENCY: '1',
      BASE_URL: baseURL,
      // Set, so the server does not warn about generating one; only this run's server knows it.
      SESSION_SECRET: randomBytes(32).toString('hex'),
      // GitHub and Google sign-in go to the local OAuth provider the global setup starts.
      ...oauthTestProviderEnv(Number(process.env.E2E_OAUTH_PORT)),
      // E-mails go to the local SMTP server the global setup starts; tests read its inbox.
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      // The pricing page's checkout buttons (tests/e2e/marketing-pricing.e2e.ts).
      ...CHECKOUT_ENV,
      // Solo is sold through the local Stripe stand-in (tests/e2e/payments.e2e.ts).
      ...stripeStandInEnv(`http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`, STRIPE_OPTIONS),
      // The chat answers with the built-in assistant, typing slowly enough that a journey can
      // stop it or reload in the middle of an answer on a busy machine (the help answer, 60
      // words, takes about 5 s: tests/e2e/chat.e2e.ts).
      AI_ASSISTANT_WORD_DELAY_MS: '80',
      // The admin of each project's console journey (tests/e2e/admin-console.e2e.ts).
      ADMIN_EMAILS: ADMIN_ADDRESSES.join(','),
      // Webhook endpoints on loopback, as a developer's receiver is (tests/e2e/webhooks.e2e.ts).
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
  },
})
