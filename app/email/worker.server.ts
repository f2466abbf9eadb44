import { and, asc, eq, lte, sql } from 'drizzle-orm'
import { type Database, database } from '~/db/client.server'
import { emailOutbox } from '~/db/schema'
import { commit } from '~/db/write.server'
import { createBackgroundLoop } from '~/utils/background-loop.server'
import { emailDeliveries, type QueueState, queueState } from '~/utils/metrics.server'
import { withSpan } from '~/utils/tracing.server'
import { type MailTransport, transportFromEnv } from './transport.server'

/**
 * Delivers the outbox. Any number of instances may run one against the same database: a row is
 * claimed with a conditional UPDATE that moves its `nextAttemptAt` forward by a lease, so exactly
 * one worker wins it and the others skip it. A worker that dies mid-send leaves the lease to run
 * out, and the row is retried. Failures back off exponentially and give up after MAX_ATTEMPTS.
 */

export const MAX_ATTEMPTS = 8
const FIRST_RETRY_MS = 30_000
const LONGEST_RETRY_MS = 60 * 60_000
/** Longer than the SMTP timeouts together (transport.server.ts), so a lease never runs out mid-send. */
export const LEASE_MS = 2 * 60_000
const POLL_INTERVAL_MS = 2_000
const BATCH_SIZE = 10
const MAX_ERROR_LENGTH = 1_000

/** Wait before the next try after `attempts` failed ones: 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS)
}

export type OutboxWorkerOptions = {
  db?: Database
  transport?: MailTransport
  pollIntervalMs?: number
  /** The clock, in ms; tests move it to make retries due. */
  now?: () => number
  logError?: (message: string, error?: unknown) => void
}

export type OutboxWorker = {
  /** Delivers what is due now and returns how many e-mails went out. */
  deliverDue(): Promise<number>
  /** Polls from now on; kick() makes it look at once. */
  start(): void
  kick(): void
  /** Stops polling, waits for the e-mail being sent, and closes the transport. */
  stop(): Promise<void>
}

export function createOutboxWorker(options: OutboxWorkerOptions = {}): OutboxWorker {
  const db = options.db ?? database()
  const transport = options.transport ?? transportFromEnv()
  const pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS
  const now = options.now ?? Date.now
  const logError = options.logError ?? ((message, error) => console.error(message, error ?? ''))

  async function claim(candidate: { id: string; nextAttemptAt: Date }) {
    const lease = new Date(now() + LEASE_MS)
    const { claimed } = await commit(db, {
      claimed: db
        .update(emailOutbox)
        .set({ nextAttemptAt: lease, attempts: sql`${emailOutbox.attempts} + 1` })
        .where(
          and(
            eq(emailOutbox.id, candidate.id),
            eq(emailOutbox.status, 'pending'),
            // Compare-and-swap on the value we read: if another worker claimed the row first, its
            // lease changed this and our UPDATE matches nothing, whatever the clocks say.
            eq(emailOutbox.nextAttemptAt, candidate.nextAttemptAt),
          ),
        ),
    })
    if (claimed.rowsAffected === 0) return undefined
    // Read back as drizzle types it, while the lease is still ours.
    const ours = and(eq(emailOutbox.id, candidate.id), eq(emailOutbox.nextAttemptAt, lease))
    const [row] = await db.select().from(emailOutbox).where(ours)
    return row
  }

  async function deliver(row: typeof emailOutbox.$inferSelect) {
    try {
      await withSpan('email send', { 'email.attempt': row.attempts }, () =>
        transport.send({ to: row.to, subject: row.subject, html: row.html, text: row.text }),
      )
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH)
      const isGivingUp = row.attempts >= MAX_ATTEMPTS
      emailDeliveries.inc({ outcome: isGivingUp ? 'failed' : 'retry' })
      logError(
        `E-mail ${row.id} to ${row.to} failed (attempt ${row.attempts} of ${MAX_ATTEMPTS})${isGivingUp ? ', giving up' : ''}:`,
        message,
      )
      await commit(db, {
        failed: db
          .update(emailOutbox)
          .set(
            isGivingUp
              ? { status: 'failed', lastError: message }
              : { lastError: message, nextAttemptAt: new Date(now() + retryDelayMs(row.attempts)) },
          )
          // Only while the lease is still ours: past it, another worker owns the row's fate.
          .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.nextAttemptAt, row.nextAttemptAt))),
      })
      return false
    }
    await commit(db, {
      sent: db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(now()), lastError: null })
        .where(eq(emailOutbox.id, row.id)),
    })
    emailDeliveries.inc({ outcome: 'sent' })
    return true
  }

  async function deliverDue() {
    let delivered = 0
    while (!loop.isStopping()) {
      const due = await db
        .select({ id: emailOutbox.id, nextAttemptAt: emailOutbox.nextAttemptAt })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, new Date(now()))))
        .orderBy(asc(emailOutbox.nextAttemptAt))
        .limit(BATCH_SIZE)
      if (due.length === 0) break
      // Every candidate leaves the due set (claimed by us or by someone else), so this ends.
      for (const candidate of due) {
        if (loop.isStopping()) break
        const row = await claim(candidate)
        if (row && (await deliver(row))) delivered += 1
      }
    }
    return delivered
  }

  const loop = createBackgroundLoop({
    pass: deliverDue,
    intervalMs: pollIntervalMs,
    name: 'Outbox worker',
  })

  return {
    deliverDue,
    start: loop.start,
    kick: loop.kick,
    async stop() {
      await loop.stop()
      transport.close()
    },
  }
}

// ── The process's worker ────────────────────────────────────────────────────

let current: OutboxWorker | undefined

/** Starts this process's worker (the server does, at boot). */
export function startOutboxWorker(options?: OutboxWorkerOptions) {
  current ??= createOutboxWorker(options)
  current.start()
  return current
}

export async function stopOutboxWorker() {
  const worker = current
  current = undefined
  await worker?.stop()
}

/**
 * Tells the worker that e-mail was queued, so it goes out now instead of at the next poll. Call it
 * after the transaction that queued the e-mail committed; before, the worker could not see it yet.
 * A no-op where no worker runs (tests, scripts): the poll of a running instance picks it up.
 */
export function kickOutbox() {
  current?.kick()
}

/** The outbox as the metrics see it: e-mails waiting, given up, and how long the oldest has waited. */
export async function outboxQueueState(db: Database, now = Date.now()): Promise<QueueState> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${emailOutbox.status} = 'pending')`,
      failed: sql<number>`count(*) filter (where ${emailOutbox.status} = 'failed')`,
      oldestDue: sql<
        number | null
      >`min(${emailOutbox.createdAt}) filter (where ${emailOutbox.status} = 'pending')`,
    })
    .from(emailOutbox)
  return queueState(row, now)
}
