import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { queueEmail } from '~/email/outbox.server'
import { passwordChangedMessage, resetPasswordMessage } from '~/email/templates.server'
import { resetEnvForTests } from '~/env.server'
import { callLoader } from '../../../tests/helpers/route'
import { loader } from './mailbox'

afterEach(() => {
  vi.unstubAllEnvs()
  resetEnvForTests()
})

describe('/dev/mailbox', () => {
  test('lists the outbox newest first, with both parts and the delivery state', async () => {
    const older = await queueEmail(
      database(),
      resetPasswordMessage('ada@example.test', 'http://localhost:3000/r?t=1'),
    )
    await database()
      .update(emailOutbox)
      .set({
        createdAt: new Date(Date.now() - 60_000),
        status: 'failed',
        attempts: 8,
        lastError: 'ECONNREFUSED',
      })
      .where(eq(emailOutbox.id, older))
    await queueEmail(database(), passwordChangedMessage('grace@example.test'))

    const { status, data, headers } = await callLoader(loader, { url: '/dev/mailbox' })
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(data.emails.map((email) => email.to)).toEqual(['grace@example.test', 'ada@example.test'])
    expect(data.emails[1]).toMatchObject({
      subject: 'Reset your Threadwork password',
      status: 'failed',
      attempts: 8,
      lastError: 'ECONNREFUSED',
      sentAt: null,
    })
    expect(data.emails[1]?.text).toContain('http://localhost:3000/r?t=1')
    expect(data.emails[1]?.html).toContain('<!doctype html>')
    expect(data.emails[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  test('does not exist in production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    resetEnvForTests()
    const result = await callLoader(loader, { url: '/dev/mailbox' })
    expect(result).toMatchObject({ status: 404, thrown: true })
    expect(JSON.stringify(result.data)).not.toContain('@example.test')
  })
})
