import { afterEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { anonymousBrowser, callThroughMiddleware } from '../../tests/helpers/auth'
import { queueEmail } from './outbox.server'
import { resetPasswordMessage } from './templates.server'
import type { MailTransport } from './transport.server'
import { startOutboxWorker, stopOutboxWorker } from './worker.server'

/**
 * The outbox is woken by the root route's middleware after a mutation, so e-mail a request queued
 * goes out at once; reads, and mutations the CSRF check refused, wake nothing.
 */

const sent: string[] = []
const transport: MailTransport = {
  send: async (email) => {
    sent.push(email.to)
  },
  close: () => {},
}

afterEach(async () => {
  await stopOutboxWorker()
  await database().delete(emailOutbox)
  sent.length = 0
})

/** A worker that would not poll again for an hour: only a wake-up sends anything. */
async function startIdleWorker() {
  startOutboxWorker({ transport, pollIntervalMs: 60 * 60_000 })
  // Let the first pass (at start) finish on an empty outbox.
  await new Promise((resolve) => setTimeout(resolve, 50))
}

const queueReset = (to: string) => async () => {
  await queueEmail(database(), resetPasswordMessage(to, 'http://x/reset'))
  return new Response('queued')
}

describe('the outbox middleware', () => {
  test('a POST that queued an e-mail sends it at once, without waiting for the next poll', async () => {
    await startIdleWorker()
    const browser = anonymousBrowser()
    const result = await callThroughMiddleware(queueReset('post@example.test'), {
      url: '/email/forgot-password',
      headers: browser.headers(),
      form: {},
    })
    expect(result.status).toBe(200)
    await expect.poll(() => sent, { timeout: 1_500 }).toEqual(['post@example.test'])
  })

  test('a GET wakes nothing', async () => {
    await startIdleWorker()
    await callThroughMiddleware(queueReset('get@example.test'), { url: '/tss' }, 'GET')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(sent).toEqual([])
  })

  test('a POST refused for its CSRF token wakes nothing', async () => {
    await startIdleWorker()
    await queueEmail(database(), resetPasswordMessage('waiting@example.test', 'http://x/reset'))
    const result = await callThroughMiddleware(queueReset('refused@example.test'), {
      url: '/email/forgot-password',
      headers: anonymousBrowser().headers({ withCsrf: false }),
      form: {},
    })
    expect(result.status).toBe(403)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(sent).toEqual([])
  })
})
