import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './accounts'
import { createdAt, id, ms } from './columns'

/**
 * Webhooks (docs/decisions/043-standard-webhooks.md): the endpoints people register, and one row
 * per message sent to one of them — its `id` is the message's `webhook-id`, so a retry or a
 * redelivery of the same event carries the same id.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** `whsec_` and base64: the key deliveries are signed with, shown to its owner once. */
    secret: text('secret').notNull(),
    /** The event types it asked for (WEBHOOK_EVENT_TYPES), as a JSON array. */
    events: text('events', { mode: 'json' }).notNull().$type<string[]>(),
    status: text('status', { enum: ['active', 'paused'] })
      .notNull()
      .default('active'),
    /** Why it was paused by the server rather than its owner (a day of failed deliveries). */
    pausedReason: text('paused_reason'),
    /** The newest event id fanned out to it: it hears only of events after it was added or resumed. */
    cursor: integer('cursor').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId),
    index('webhook_endpoints_status_idx').on(t.status),
  ],
)

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    /** The message's `webhook-id`, the same on every attempt. */
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The event log's id (0 for a test event): deliveries of one endpoint go out in its order. */
    eventId: integer('event_id').notNull(),
    type: text('type').notNull(),
    /** The signed JSON body, as it is sent on every attempt. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at').notNull(),
    /** Failing past this, the delivery is given up and its endpoint paused (about a day). */
    retryUntil: ms('retry_until').notNull(),
    lastAttemptAt: ms('last_attempt_at'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    /** The start of the answer's body, or why there was none (a refused address, a timeout). */
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.endpointId, t.status, t.nextAttemptAt),
  ],
)
