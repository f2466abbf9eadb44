import { desc } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'

/** The outbox as a developer reads it at /dev/mailbox: newest first, every part and every state. */
export async function listRecentEmails(db: Database, limit = 50) {
  const rows = await db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(limit)
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  }))
}
