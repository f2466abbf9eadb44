import { and, asc, eq, lte, min, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { users, webhookDeliveries, webhookEndpoints } from '~/db/schema'
import { type Builder, commit, wroteJustBefore } from '~/db/write.server'
import { emailStatement } from '~/email/outbox.server'
import { webhookPausedMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { type JobHandler, scheduleJob, scheduleJobBy } from '~/jobs/jobs.server'
import { webhookDeliveries as deliveriesMetric } from '~/utils/metrics.server'
import { type SendOptions, sendMessage } from './send.server'

/**
 * Sending what the fan-out queued (fan-out.server.ts): one job per endpoint, so its messages go
 * out one at a time in the order of the event log; a failed one (network error, timeout, a
 * non-2xx answer, a redirect) is retried on its own clock while the next ones go on — in order
 * as far as retries allow. Retries start a minute after the first failure and double, up to six
 * hours apart, for a day; a message still failing then is given up, its endpoint paused and its
 * owner e-mailed. The job's own retries (jobs.server.ts) only cover a runner that died mid-run.
 */

export const WEBHOOK_DELIVERIES_JOB = 'webhook-deliveries'
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000
const FIRST_RETRY_MS = 60_000
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000
/** Messages one run sends before it makes room for other jobs. */
const BATCH_SIZE = 20

/** Wait after the `attempts`-th failed attempt: 1 min, 2, 4 … up to 6 hours. */
function webhookRetryDelayMs(attempts: number) {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS)
}

/**
 * The statements that make an endpoint's job run at `runAt`, or sooner if it waits for a retry:
 * a new message must not wait for an older one's. For the commit that queues the message, and
 * only while `onlyIf` holds (the person's own endpoint): a refused request queues nothing.
 */
export function deliverSoon(db: Builder, endpointId: string, runAt: Date, onlyIf: SQL = sql`1`) {
  const id = `${WEBHOOK_DELIVERIES_JOB}:${endpointId}`
  return scheduleJobBy(db, { id, type: WEBHOOK_DELIVERIES_JOB, payload: { endpointId }, runAt }, onlyIf)
}

/** The job's handler; tests hand in their own resolver (no name needs the internet). */
export function webhookDeliveriesHandler(options: Partial<SendOptions> = {}): JobHandler {
  return async (db, payload, now) => {
    const sendOptions = { allowPrivate: env().WEBHOOKS_ALLOW_PRIVATE, ...options }
    const endpointId = String(payload.endpointId)
    const [endpoint] = await db
      .select({
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        status: webhookEndpoints.status,
        ownerEmail: users.email,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.id, webhookEndpoints.userId))
      .where(eq(webhookEndpoints.id, endpointId))
    // Paused: resuming schedules the job again; deleted: its messages went with it.
    if (endpoint?.status !== 'active') return 0
    const due = await db
      .select()
      .from(webhookDeliveries)
      .where(isPendingOf(endpointId, lte(webhookDeliveries.nextAttemptAt, now)))
      .orderBy(asc(webhookDeliveries.eventId), asc(webhookDeliveries.createdAt))
      .limit(BATCH_SIZE)
    let sent = 0
    for (const delivery of due) {
      const attempt = await sendMessage(endpoint, delivery, sendOptions)
      const isGivingUp = !attempt.isSuccess && now >= delivery.retryUntil
      deliveriesMetric.inc({ outcome: attempt.isSuccess ? 'sent' : isGivingUp ? 'failed' : 'retry' })
      const result = {
        attempts: delivery.attempts + 1,
        lastAttemptAt: now,
        responseStatus: attempt.status,
        durationMs: attempt.durationMs,
        responseExcerpt: attempt.excerpt,
      }
      if (attempt.isSuccess) {
        sent += 1
        await commit(db, {
          delivered: db
            .update(webhookDeliveries)
            .set({ ...result, status: 'succeeded' })
            .where(eq(webhookDeliveries.id, delivery.id)),
        })
      } else if (isGivingUp) {
        await giveUp(db, endpoint, delivery.id, result)
        return sent
      } else {
        const retryAt = Math.min(
          now.getTime() + webhookRetryDelayMs(result.attempts),
          delivery.retryUntil.getTime(),
        )
        await commit(db, {
          retried: db
            .update(webhookDeliveries)
            .set({ ...result, nextAttemptAt: new Date(retryAt) })
            .where(eq(webhookDeliveries.id, delivery.id)),
        })
      }
    }
    const [next] = await db
      .select({ at: min(webhookDeliveries.nextAttemptAt) })
      .from(webhookDeliveries)
      .where(isPendingOf(endpointId))
    if (next?.at) {
      const runAt = new Date(Math.max(next.at.getTime(), now.getTime()))
      await commit(db, {
        job: scheduleJob(db, {
          id: `${WEBHOOK_DELIVERIES_JOB}:${endpointId}`,
          type: WEBHOOK_DELIVERIES_JOB,
          payload,
          runAt,
        }),
      })
    }
    return sent
  }
}

const isPendingOf = (endpointId: string, also = sql`1`) =>
  and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending'), also)

/** A day of failures: the message is given up, the endpoint paused, its owner told — once. */
async function giveUp(
  db: Database,
  endpoint: { id: string; url: string; ownerEmail: string },
  deliveryId: string,
  result: Partial<typeof webhookDeliveries.$inferInsert>,
) {
  const settingsUrl = `${env().BASE_URL}/settings/developer/webhooks/${endpoint.id}`
  await commit(db, {
    failed: db
      .update(webhookDeliveries)
      .set({ ...result, status: 'failed' })
      .where(eq(webhookDeliveries.id, deliveryId)),
    paused: db
      .update(webhookEndpoints)
      .set({ status: 'paused', pausedReason: 'Deliveries failed for a day' })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.status, 'active'))),
    email: emailStatement(
      db,
      webhookPausedMessage(endpoint.ownerEmail, endpoint.url, settingsUrl),
      wroteJustBefore,
    ),
  })
}
