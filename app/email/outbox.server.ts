import { type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { type Builder, commit, insertIf } from '~/db/write.server'

export type OutgoingEmail = {
  to: string
  subject: string
  html: string
  text: string
}

/**
 * The statement that queues an e-mail, for the commit of the change it belongs to
 * (app/db/write.server.ts), so both commit or neither does; with `onlyIf`, queued only when that
 * holds as the commit reaches it. Every e-mail goes through the outbox table first, so a request
 * never waits on SMTP and nothing is lost if the mail server is down; a worker delivers with retries.
 */
export function emailStatement(db: Builder, email: OutgoingEmail, onlyIf: SQL = sql`1`) {
  return insertIf(db, emailOutbox, { ...email, id: crypto.randomUUID(), createdAt: new Date() }, onlyIf)
}

/** Queues an e-mail on its own, a commit of one statement; answers its id. */
export async function queueEmail(db: Database, email: OutgoingEmail) {
  const { queued } = await commit(db, { queued: emailStatement(db, email).returning({ id: emailOutbox.id }) })
  return String(queued.rows[0]?.[emailOutbox.id.name])
}
