import { createTransport } from 'nodemailer'
import { env } from '~/env.server'
import type { OutgoingEmail } from './outbox.server'

/**
 * How an e-mail leaves the building. The outbox worker only knows this shape, so tests and the
 * no-SMTP mode swap the way out without touching the retry and leasing rules.
 */
export type MailTransport = {
  /** Resolves once the server accepted the message; rejects with the reason otherwise. */
  send(email: OutgoingEmail): Promise<void>
  close(): void
}

/**
 * Short timeouts: a stuck server must fail the attempt (and be retried later) well within the
 * worker's lease on the row, or another instance could pick it up and send it twice.
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
}

/** Real delivery over SMTP (`smtp://` or `smtps://`, credentials in the URL). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = createTransport({ url, ...SMTP_TIMEOUTS }, { from })
  return {
    async send(email) {
      // Both parts travel: the HTML for mail programs, the text for the rest and for tests.
      await transporter.sendMail({ to: email.to, subject: email.subject, html: email.html, text: email.text })
    },
    close() {
      transporter.close()
    },
  }
}

/**
 * Without SMTP (development, demos, tests) an e-mail is written to the log, where its links can
 * be followed; outside production /dev/mailbox shows it too.
 */
export function logTransport(
  log: (line: string) => void = console.log,
  { withBody = true }: { withBody?: boolean } = {},
): MailTransport {
  return {
    async send(email) {
      log(`E-mail to ${email.to}: ${email.subject}${withBody ? `\n${email.text}` : ''}`)
    },
    close() {},
  }
}

/** SMTP when `SMTP_URL` is set, else the log. */
export function transportFromEnv(): MailTransport {
  const { SMTP_URL, MAIL_FROM, isProduction, LOG_FORMAT } = env()
  if (SMTP_URL) return smtpTransport(SMTP_URL, MAIL_FROM)
  // Nobody receives the e-mails, and their links (sign-in secrets) end up in the log.
  if (isProduction) console.warn('SMTP_URL is not set: e-mails are written to the log instead of being sent.')
  // A machine-read log keeps no e-mail bodies (their links are sign-in secrets): /dev/mailbox shows them.
  return logTransport(console.log, { withBody: LOG_FORMAT !== 'json' })
}
