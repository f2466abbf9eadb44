import type { Executor } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'

export type OutgoingEmail = {
  to: string
  subject: string
  html: string
  text: string
}

/**
 * Queues an e-mail. Every e-mail goes through the outbox table first, so a request never waits
 * on SMTP and nothing is lost if the mail server is down; a worker delivers with retries.
 * Pass the transaction when the e-mail belongs to a change, so both commit or neither does.
 */
export async function queueEmail(db: Executor, email: OutgoingEmail) {
  const [row] = await db.insert(emailOutbox).values(email).returning({ id: emailOutbox.id })
  return row?.id as string
}
