import { join } from 'node:path'
import { expect } from '@playwright/test'
import { type ReceivedEmail, readInbox } from '../fixtures/smtp-server'

/** Where smtp-server.setup.ts keeps what the app sent during this run. */
export function e2eMailDir() {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the browser tests through playwright.config.ts')
  return join(dir, 'mail')
}

/** Every e-mail to `to` with this subject so far, oldest first. */
export function emailsTo(to: string, subject: string) {
  return readInbox(e2eMailDir()).filter((email) => email.to === to && email.subject === subject)
}

/** Waits until the SMTP server holds `count` such e-mails, and returns the newest. */
export async function waitForEmail(to: string, subject: string, count = 1): Promise<ReceivedEmail> {
  await expect
    .poll(() => emailsTo(to, subject).length, {
      message: `"${subject}" e-mail #${count} to ${to}`,
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(count)
  return emailsTo(to, subject).at(-1) as ReceivedEmail
}
