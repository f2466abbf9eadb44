import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { Webhook } from 'standardwebhooks'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'

/**
 * Webhooks in /settings/developer, with JavaScript on and off: a URL the server refuses says why
 * next to the form, an endpoint on a loopback receiver (the e2e server runs with
 * WEBHOOKS_ALLOW_PRIVATE=true) is added and its secret shown once, and "Send test event" reaches
 * the receiver through the jobs queue, signed so that standardwebhooks verifies it with that secret.
 */

// Signing up uses real scrypt, and the test event waits for the job runner's next poll (15 s).
test.describe.configure({ timeout: 90_000 })

/** A toast with JavaScript; the banner that carries it across the redirect without. */
function notice(page: Page, javaScriptEnabled: boolean, title: string) {
  return javaScriptEnabled
    ? page.locator('[data-sonner-toast]').filter({ hasText: title })
    : page.getByRole('status').filter({ hasText: title })
}

test('add a webhook endpoint, see its secret once, and receive a verified test event', async ({
  signedInPage: page,
  javaScriptEnabled,
}) => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = []
  const receiver = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

  try {
    await page.goto('/settings/developer')
    const section = page.getByRole('region', { name: 'Webhooks' })

    await section.getByLabel('Endpoint URL').fill('http://hooks.example.com/in')
    await section.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(section.getByText('Webhooks are sent over https only: use an https:// URL')).toBeVisible()

    await section.getByLabel('Endpoint URL').fill(url)
    await section.getByLabel('Comment deleted').uncheck()
    await section.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(section.getByText(`Endpoint added: ${url}`)).toBeVisible()
    const secret = await section.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_/)
    const endpoint = section.getByTestId('webhook-endpoint').filter({ hasText: url })
    await expect(endpoint).toContainText('Task created')
    await expect(endpoint).not.toContainText('Comment deleted')
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page, 'developer settings with an endpoint')

    await endpoint.getByRole('button', { name: `Send test event for ${url}` }).click()
    await expect(notice(page, javaScriptEnabled, 'Test event queued')).toBeVisible()
    // The secret was shown once: the page after the redirect no longer has it.
    await expect(page.getByLabel('Signing secret')).toHaveCount(0)

    await expect.poll(() => received.length, { timeout: 40_000 }).toBe(1)
    const [message] = received
    const verified = new Webhook(secret).verify(message?.body ?? '', {
      'webhook-id': String(message?.headers['webhook-id']),
      'webhook-timestamp': String(message?.headers['webhook-timestamp']),
      'webhook-signature': String(message?.headers['webhook-signature']),
    })
    expect(verified).toMatchObject({ type: 'webhook.test' })

    await page.getByRole('link', { name: 'Deliveries' }).click()
    await expect(page.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible()
    await expect(page.getByTestId('webhook-delivery')).toContainText('succeeded')
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page, 'webhook deliveries')
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
})
