import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { resetEnvForTests } from '~/env.server'
import { type SmtpFixture, startSmtpServer } from '../../tests/fixtures/smtp-server'
import { passwordChangedMessage } from './templates.server'
import { transportFromEnv } from './transport.server'

let smtp: SmtpFixture
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp.close()
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  resetEnvForTests()
})

describe('transportFromEnv', () => {
  test('with SMTP_URL, sends through that server from MAIL_FROM', async () => {
    vi.stubEnv('SMTP_URL', smtp.url)
    vi.stubEnv('MAIL_FROM', 'Threadwork Team <team@threadwork.test>')
    resetEnvForTests()
    const transport = transportFromEnv()
    await transport.send(passwordChangedMessage('ada@example.test'))
    transport.close()
    expect(smtp.messages).toHaveLength(1)
    expect(smtp.messages[0]).toMatchObject({
      mailFrom: 'team@threadwork.test',
      from: 'Threadwork Team <team@threadwork.test>',
      to: 'ada@example.test',
      subject: 'Your Threadwork password was changed',
    })
  })

  test('without it, logs each e-mail, and warns in production that nothing is sent', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.stubEnv('SMTP_URL', '')
    resetEnvForTests()
    await transportFromEnv().send(passwordChangedMessage('grace@example.test'))
    expect(log).toHaveBeenCalledWith(expect.stringContaining('E-mail to grace@example.test'))
    expect(warn).not.toHaveBeenCalled()

    vi.stubEnv('NODE_ENV', 'production')
    resetEnvForTests()
    transportFromEnv()
    expect(warn).toHaveBeenCalledWith(
      'SMTP_URL is not set: e-mails are written to the log instead of being sent.',
    )
  })
})
