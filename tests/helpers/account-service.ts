import { eq } from 'drizzle-orm'
import { database } from '~/db/client.server'
import { emailOutbox, users } from '~/db/schema'

/** What the account service's tests share (app/services/accounts.server.test.ts, profile.server.test.ts). */

/** Real scrypt at N=2^17 takes ~0.3 s alone but several seconds on a busy two-core machine. */
export const REAL_SCRYPT = { timeout: 60_000 }

let ipSequence = 0
/** Each case its own client address, so per-IP limits only bite where a test means them to. */
export const client = () => ({ ip: `192.0.2.${++ipSequence}` })

export async function userRow(id: string) {
  const [row] = await database().select().from(users).where(eq(users.id, id))
  return row
}

export async function outboxTo(email: string) {
  return database().select().from(emailOutbox).where(eq(emailOutbox.to, email))
}
