import { inArray, max } from 'drizzle-orm'
import type Stripe from 'stripe'
import { type Database, database } from '~/db/client.server'
import { webhookEvents } from '~/db/schema'
import { kickOutbox } from '~/email/worker.server'
import { type BackgroundLoop, createBackgroundLoop } from '~/utils/background-loop.server'
import { stripeClient } from './stripe.server'
import { handleStripeEvent, STRIPE_EVENT_TYPES } from './webhook.server'

/**
 * Stripe stops delivering an event once we answered 2xx, that is once its transaction committed.
 * A commit can still be lost afterwards (a power cut with DATABASE_SYNCHRONOUS=NORMAL, a restore
 * from a backup, a replica promoted before it caught up), and an endpoint that was down for longer
 * than Stripe retries never gets the event at all. So each instance asks Stripe's API, at boot and
 * hourly, for the events it would have sent since the last one we recorded, and applies the ones
 * `webhook_events` lacks through the webhook's own idempotent path (docs/decisions/036-stripe-reconciliation.md).
 */

const RECONCILE_INTERVAL_MS = 60 * 60 * 1000
const RETRY_INTERVAL_MS = 5 * 60 * 1000
/**
 * How far before the newest recorded event to look: a commit lost later was received after it,
 * and Stripe retries an event for up to three days after creating it, so it was created at most
 * that long before; an hour more for the two clocks (ours records receipt, Stripe's creation).
 */
const LOOK_BACK_S = 3 * 24 * 60 * 60 + 60 * 60
const PAGE_SIZE = 100

/** How many events Stripe listed, and the ids of those `webhook_events` lacked, now recorded. */
export type Reconciliation = { checked: number; recorded: string[] }

/** The Unix time after which Stripe's events are checked; none recorded: all Stripe keeps (30 days). */
async function checkedSince(db: Database): Promise<number | null> {
  const [row] = await db.select({ latest: max(webhookEvents.receivedAt) }).from(webhookEvents)
  return row?.latest ? Math.floor(row.latest.getTime() / 1000) - LOOK_BACK_S : null
}

/** Applies every event Stripe has since the last one recorded that `webhook_events` lacks. */
export async function reconcileStripeEvents(db: Database, stripe: Stripe): Promise<Reconciliation> {
  const since = await checkedSince(db)
  const result: Reconciliation = { checked: 0, recorded: [] }
  let page: Stripe.Event[] = []
  const applyMissing = async () => {
    const ids = page.map((event) => event.id)
    const recorded = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(inArray(webhookEvents.id, ids))
    const known = new Set(recorded.map((row) => row.id))
    for (const event of page) {
      // A webhook delivering it meanwhile makes this a duplicate, which changes nothing.
      if (!known.has(event.id) && (await handleStripeEvent(db, event)) !== 'duplicate')
        result.recorded.push(event.id)
    }
    result.checked += page.length
    page = []
  }
  const events = stripe.events.list({
    types: [...STRIPE_EVENT_TYPES],
    limit: PAGE_SIZE,
    ...(since === null ? {} : { created: { gt: since } }),
  })
  for await (const event of events) {
    page.push(event)
    if (page.length === PAGE_SIZE) await applyMissing()
  }
  if (page.length) await applyMissing()
  return result
}

let loop: BackgroundLoop | undefined

/** Starts this process's hourly reconciliation, with a first pass now; nothing without Stripe. */
export function startStripeReconciliation(options: { retryIntervalMs?: number } = {}) {
  if (!stripeClient()) return
  loop ??= createBackgroundLoop({
    async pass() {
      const stripe = stripeClient()
      if (!stripe) return
      const { recorded } = await reconcileStripeEvents(database(), stripe)
      if (!recorded.length) return
      // One created moments ago may only be on its way; an older one was lost or never delivered.
      console.warn(
        `Stripe reconciliation recorded ${recorded.length} event(s) we lacked: ${recorded.join(', ')}`,
      )
      // A recovered purchase queued its thank-you e-mail: send it now, not at the outbox's next poll.
      kickOutbox()
    },
    intervalMs: RECONCILE_INTERVAL_MS,
    retryIntervalMs: options.retryIntervalMs ?? RETRY_INTERVAL_MS,
    name: 'Stripe reconciliation',
  })
  loop.start()
}

export async function stopStripeReconciliation() {
  await loop?.stop()
  loop = undefined
}
