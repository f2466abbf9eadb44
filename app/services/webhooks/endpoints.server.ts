import { randomBytes } from 'node:crypto'
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { webhookDeliveries, webhookEndpoints } from '~/db/schema'
import { commit, insertIf, wroteJustBefore } from '~/db/write.server'
import { env } from '~/env.server'
import { eventLogHead } from '~/events/log.server'
import { Invalid, NotFound } from '../errors'
import type { Actor } from '../session-user'
import { refuseEndpointUrl } from './addresses.server'
import { deliverSoon, RETRY_FOR_MS } from './deliveries.server'
import { messageBody } from './fan-out.server'
import {
  MAX_WEBHOOK_ENDPOINTS,
  TEST_EVENT_TYPE,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
} from './webhook-schemas'

/**
 * A person's webhook endpoints: adding one (its secret shown once), pausing, resuming, deleting,
 * a test message, and the messages sent to one with "Redeliver". Each endpoint is its owner's
 * alone: anyone else's id answers 'Webhook endpoint not found'.
 */

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found'
const DELIVERY_NOT_FOUND = 'Delivery not found'

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  status: webhookEndpoints.status,
  pausedReason: webhookEndpoints.pausedReason,
  createdAt: webhookEndpoints.createdAt,
}

const toView = (row: { createdAt: Date } & Omit<WebhookEndpointView, 'createdAt'>): WebhookEndpointView => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
})

const ownedBy = (actor: Actor, endpointId: string) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, actor.id))

/** The guard of a statement on another table: the endpoint is the actor's, as the commit runs. */
const isOwnEndpoint = (actor: Actor, endpointId: string) =>
  sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${ownedBy(actor, endpointId)})`

/** A new `whsec_` secret: 32 random bytes, base64, as Standard Webhooks libraries read it. */
function newSecret() {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** Adds an endpoint; answers it and its secret, which is never shown again. */
export async function addWebhookEndpoint(
  db: Database,
  actor: Actor,
  input: { url: string; events: WebhookEventType[] },
) {
  const refusal = refuseEndpointUrl(input.url, env().WEBHOOKS_ALLOW_PRIVATE)
  if (refusal) throw new Invalid(refusal, [{ path: ['url'], message: refusal }])
  const id = crypto.randomUUID()
  const secret = newSecret()
  const owned = db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, actor.id))
  const { added } = await commit(db, {
    added: insertIf(
      db,
      webhookEndpoints,
      {
        id,
        userId: actor.id,
        url: input.url,
        secret,
        events: [...new Set(input.events)],
        status: 'active',
        pausedReason: null,
        // It hears of what happens from now on.
        cursor: await eventLogHead(db),
        createdAt: new Date(),
      },
      sql`(${owned}) < ${MAX_WEBHOOK_ENDPOINTS}`,
    ),
  })
  if (added.rowsAffected === 0)
    throw new Invalid(`You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`)
  return { id, secret }
}

export async function listWebhookEndpoints(db: Database, actor: Actor): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, actor.id))
    .orderBy(desc(webhookEndpoints.createdAt))
  return rows.map(toView)
}

async function getWebhookEndpoint(db: Database, actor: Actor, endpointId: string) {
  const [row] = await db.select(endpointColumns).from(webhookEndpoints).where(ownedBy(actor, endpointId))
  if (!row) throw new NotFound(ENDPOINT_NOT_FOUND)
  return toView(row)
}

export async function pauseWebhookEndpoint(db: Database, actor: Actor, endpointId: string) {
  const { paused } = await commit(db, {
    paused: db
      .update(webhookEndpoints)
      .set({ status: 'paused', pausedReason: null })
      .where(ownedBy(actor, endpointId)),
  })
  if (paused.rowsAffected === 0) throw new NotFound(ENDPOINT_NOT_FOUND)
}

/**
 * Resumes an endpoint: it hears of events from now on (not of those while it was paused), and
 * the messages still waiting go out now.
 */
export async function resumeWebhookEndpoint(db: Database, actor: Actor, endpointId: string) {
  const now = new Date()
  const isOwn = isOwnEndpoint(actor, endpointId)
  const { resumed } = await commit(db, {
    resumed: db
      .update(webhookEndpoints)
      .set({ status: 'active', pausedReason: null, cursor: await eventLogHead(db) })
      .where(ownedBy(actor, endpointId)),
    waiting: db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now, retryUntil: new Date(now.getTime() + RETRY_FOR_MS) })
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.status, 'pending'),
          wroteJustBefore,
        ),
      ),
    job: deliverSoon(db, endpointId, now, isOwn),
  })
  if (resumed.rowsAffected === 0) throw new NotFound(ENDPOINT_NOT_FOUND)
}

export async function deleteWebhookEndpoint(db: Database, actor: Actor, endpointId: string) {
  const { deleted } = await commit(db, {
    deleted: db.delete(webhookEndpoints).where(ownedBy(actor, endpointId)),
  })
  if (deleted.rowsAffected === 0) throw new NotFound(ENDPOINT_NOT_FOUND)
}

/** "Send test event": a message of its own, queued like any other. */
export async function sendTestEvent(db: Database, actor: Actor, endpointId: string) {
  await getWebhookEndpoint(db, actor, endpointId)
  const now = new Date()
  const id = `msg_test_${crypto.randomUUID()}`
  const isOwn = isOwnEndpoint(actor, endpointId)
  await commit(db, {
    message: insertIf(
      db,
      webhookDeliveries,
      {
        id,
        endpointId,
        eventId: 0,
        type: TEST_EVENT_TYPE,
        body: messageBody(TEST_EVENT_TYPE, now, { endpointId, message: 'A test event from Threadwork' }),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        retryUntil: new Date(now.getTime() + RETRY_FOR_MS),
        lastAttemptAt: null,
        responseStatus: null,
        durationMs: null,
        responseExcerpt: null,
        createdAt: now,
      },
      isOwn,
    ),
    job: deliverSoon(db, endpointId, now, isOwn),
  })
  return id
}

const RECENT_DELIVERIES = 50

/** The endpoint's most recent messages, newest first. */
export async function listWebhookDeliveries(db: Database, actor: Actor, endpointId: string) {
  const endpoint = await getWebhookEndpoint(db, actor, endpointId)
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      type: webhookDeliveries.type,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      responseStatus: webhookDeliveries.responseStatus,
      durationMs: webhookDeliveries.durationMs,
      responseExcerpt: webhookDeliveries.responseExcerpt,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventId))
    .limit(RECENT_DELIVERIES)
  const deliveries: WebhookDeliveryView[] = rows.map((row) => ({
    ...row,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }))
  return { endpoint, deliveries }
}

/** "Redeliver": the same message — same `webhook-id`, same body — sent again now, retried for a day. */
export async function redeliver(db: Database, actor: Actor, endpointId: string, deliveryId: string) {
  const now = new Date()
  const isOwn = isOwnEndpoint(actor, endpointId)
  const { queued } = await commit(db, {
    queued: db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, retryUntil: new Date(now.getTime() + RETRY_FOR_MS) })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), isOwn)),
    job: deliverSoon(
      db,
      endpointId,
      now,
      and(
        isOwn,
        sql`EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId))})`,
      ) as SQL,
    ),
  })
  if (queued.rowsAffected === 0) throw new NotFound(DELIVERY_NOT_FOUND)
}
