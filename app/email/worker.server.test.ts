import { createServer } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { env } from '~/env.server'
import { type SmtpFixture, startSmtpServer } from '../../tests/fixtures/smtp-server'
import { queueEmail } from './outbox.server'
import { resetPasswordMessage, verifyEmailMessage } from './templates.server'
import { logTransport, type MailTransport, smtpTransport } from './transport.server'
import {
  createOutboxWorker,
  kickOutbox,
  LEASE_MS,
  MAX_ATTEMPTS,
  retryDelayMs,
  startOutboxWorker,
  stopOutboxWorker,
} from './worker.server'

const FROM = 'Threadwork <no-reply@threadwork.test>'
let smtp: SmtpFixture

beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp.close()
})
afterEach(async () => {
  await stopOutboxWorker()
  // Each test starts with an empty outbox and inbox.
  await database().delete(emailOutbox)
  smtp.messages.length = 0
})

async function outboxRow(id: string) {
  const [row] = await database().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  if (!row) throw new Error(`no outbox row ${id}`)
  return row
}

/** A port nothing listens on: connecting fails at once with ECONNREFUSED. */
async function closedPort() {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

const silent = () => {}

describe('outbox worker', () => {
  test('delivers a queued e-mail over SMTP, HTML and text, and marks the row sent', async () => {
    const id = await queueEmail(
      database(),
      verifyEmailMessage('ada@example.test', 'Ada', 'http://localhost:3000/email/verify-email?token=abc'),
    )
    const transport = smtpTransport(smtp.url, FROM)
    const worker = createOutboxWorker({ transport })

    expect(await worker.deliverDue()).toBe(1)
    await worker.stop()

    expect(smtp.messages).toHaveLength(1)
    const [email] = smtp.messages
    expect(email).toMatchObject({
      mailFrom: 'no-reply@threadwork.test',
      rcptTo: ['ada@example.test'],
      to: 'ada@example.test',
      subject: 'Verify your e-mail address',
    })
    expect(email?.from).toContain('no-reply@threadwork.test')
    expect(email?.text).toContain('Welcome, Ada!')
    expect(email?.text).toContain('Verify e-mail address: http://localhost:3000/email/verify-email?token=abc')
    expect(email?.text).toContain('— Threadwork')
    expect(email?.html).toContain('href="http://localhost:3000/email/verify-email?token=abc"')

    const row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(row.sentAt).toBeInstanceOf(Date)
  })

  test('a failing server counts the attempt, keeps the error and backs off exponentially', async () => {
    const id = await queueEmail(database(), resetPasswordMessage('grace@example.test', 'http://x/reset'))
    let clock = Date.now()
    const worker = createOutboxWorker({
      transport: smtpTransport(`smtp://127.0.0.1:${await closedPort()}`, FROM),
      now: () => clock,
      logError: silent,
    })

    expect(await worker.deliverDue()).toBe(0)
    let row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'pending', attempts: 1 })
    expect(row.lastError).toMatch(/ECONNREFUSED/)
    expect(row.nextAttemptAt.getTime()).toBe(clock + 30_000)

    // Not due yet: nothing is tried again.
    clock += 29_000
    expect(await worker.deliverDue()).toBe(0)
    expect((await outboxRow(id)).attempts).toBe(1)

    clock += 1_000
    await worker.deliverDue()
    row = await outboxRow(id)
    expect(row.attempts).toBe(2)
    expect(row.nextAttemptAt.getTime()).toBe(clock + 60_000)

    // Keep failing until the worker gives up; the error stays for whoever looks into it.
    while (row.status === 'pending') {
      clock = row.nextAttemptAt.getTime()
      await worker.deliverDue()
      row = await outboxRow(id)
    }
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    expect(row.lastError).toMatch(/ECONNREFUSED/)
    expect(row.sentAt).toBeNull()

    clock += 24 * 60 * 60_000
    expect(await worker.deliverDue()).toBe(0)
    expect((await outboxRow(id)).attempts).toBe(MAX_ATTEMPTS)
    await worker.stop()
  })

  test('backs off 30 s, doubling, capped at an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ])
  })

  test('without SMTP, each e-mail is logged with its text and marked sent', async () => {
    const lines: string[] = []
    const id = await queueEmail(
      database(),
      verifyEmailMessage('lin@example.test', 'Lin', 'http://localhost:3000/email/verify-email?token=t0k'),
    )
    const worker = createOutboxWorker({ transport: logTransport((line) => lines.push(line)) })

    expect(await worker.deliverDue()).toBe(1)
    await worker.stop()

    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('E-mail to lin@example.test: Verify your e-mail address')
    expect(lines[0]).toContain('http://localhost:3000/email/verify-email?token=t0k')
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 })
  })

  test('leaves e-mails that are not due yet, and rows another worker holds, alone', async () => {
    const later = await queueEmail(database(), resetPasswordMessage('a@example.test', 'http://x/1'))
    await database()
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() + LEASE_MS) })
      .where(eq(emailOutbox.id, later))
    const sends: string[] = []
    const worker = createOutboxWorker({
      transport: { send: async (email) => void sends.push(email.to), close: silent },
    })

    expect(await worker.deliverDue()).toBe(0)
    expect(sends).toEqual([])
    expect(await outboxRow(later)).toMatchObject({ status: 'pending', attempts: 0 })
  })

  test('two workers on two connections never send the same e-mail twice', async () => {
    const count = 16
    for (let n = 0; n < count; n++) {
      await queueEmail(database(), resetPasswordMessage(`user${n}@example.test`, `http://x/${n}`))
    }
    const second = openDatabase({ url: env().DATABASE_URL })
    // Slow sends widen the window in which both workers look at the same due rows.
    const slowSmtp = (): MailTransport => {
      const inner = smtpTransport(smtp.url, FROM)
      return {
        send: async (email) => {
          await new Promise((resolve) => setTimeout(resolve, 5))
          await inner.send(email)
        },
        close: () => inner.close(),
      }
    }
    const a = createOutboxWorker({ transport: slowSmtp() })
    const b = createOutboxWorker({ db: second, transport: slowSmtp() })

    const [byA, byB] = await Promise.all([a.deliverDue(), b.deliverDue()])
    await Promise.all([a.stop(), b.stop()])
    second.$client.close()

    expect(byA + byB).toBe(count)
    // Both took part, so the test really raced them.
    expect(byA).toBeGreaterThan(0)
    expect(byB).toBeGreaterThan(0)
    const recipients = smtp.messages.map((m) => m.to).sort()
    expect(recipients).toHaveLength(count)
    expect(new Set(recipients).size).toBe(count)
    const rows = await database().select().from(emailOutbox)
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true)
  })

  test('a started worker sends at once when kicked, without waiting for its next poll', async () => {
    startOutboxWorker({ transport: smtpTransport(smtp.url, FROM), pollIntervalMs: 60 * 60_000 })
    // Let the first pass (at start) finish on an empty outbox.
    await new Promise((resolve) => setTimeout(resolve, 50))

    const id = await queueEmail(database(), resetPasswordMessage('kick@example.test', 'http://x/kick'))
    const started = Date.now()
    kickOutbox()
    const email = await smtp.waitForEmail((m) => m.to === 'kick@example.test', 2_000)
    expect(email.subject).toBe('Reset your Threadwork password')
    expect(Date.now() - started).toBeLessThan(1_500)
    await expect.poll(async () => (await outboxRow(id)).status).toBe('sent')
  })

  test('a started worker polls for e-mail queued elsewhere (another instance)', async () => {
    startOutboxWorker({ transport: smtpTransport(smtp.url, FROM), pollIntervalMs: 50 })
    await queueEmail(database(), resetPasswordMessage('poll@example.test', 'http://x/poll'))
    // No kick: only the poll can find it.
    const email = await smtp.waitForEmail((m) => m.to === 'poll@example.test', 2_000)
    expect(email.text).toContain('http://x/poll')
  })

  test('stopping waits for the e-mail in flight and sends nothing afterwards', async () => {
    let release: () => void = silent
    const sends: string[] = []
    const transport: MailTransport = {
      send: (email) =>
        new Promise<void>((resolve) => {
          sends.push(email.to)
          release = resolve
        }),
      close: silent,
    }
    await queueEmail(database(), resetPasswordMessage('first@example.test', 'http://x/1'))
    await queueEmail(database(), resetPasswordMessage('second@example.test', 'http://x/2'))
    startOutboxWorker({ transport, pollIntervalMs: 50 })
    await expect.poll(() => sends.length).toBe(1)

    let isStopped = false
    const stopping = stopOutboxWorker().then(() => {
      isStopped = true
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isStopped).toBe(false)
    release()
    await stopping
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(sends).toHaveLength(1)
    const rows = await database().select().from(emailOutbox)
    expect(rows.map((row) => row.status).sort()).toEqual(['pending', 'sent'])
  })
})
