import { z } from '~/utils/zod'

/**
 * What a webhook endpoint may subscribe to, as the form lists them and the bodies name them
 * (`type`), and the form's schema. Client-safe: whether an address may be called is the
 * server's to judge (webhooks/addresses.server.ts), after this schema.
 */
export const WEBHOOK_EVENTS = [
  { type: 'task.created', label: 'Task created' },
  { type: 'task.updated', label: 'Task updated' },
  { type: 'task.status_changed', label: 'Task status changed' },
  { type: 'task.deleted', label: 'Task deleted' },
  { type: 'comment.added', label: 'Comment added' },
  { type: 'comment.updated', label: 'Comment updated' },
  { type: 'comment.deleted', label: 'Comment deleted' },
  { type: 'mention', label: 'You are mentioned' },
  { type: 'assignment', label: 'A task is assigned to you' },
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type']
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((event) => event.type) as [
  WebhookEventType,
  ...WebhookEventType[],
]

/** The type of the event "Send test event" sends; no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test'

export const MAX_WEBHOOK_ENDPOINTS = 10
const MAX_URL_LENGTH = 2_000

export const WebhookEndpointSchema = z.object({
  url: z
    .string({ error: 'Enter the URL to send events to' })
    .trim()
    .max(MAX_URL_LENGTH, 'The URL is too long')
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter a full URL, starting with https://' })),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES), { error: 'Choose at least one event' })
    .min(1, 'Choose at least one event'),
})

export const WebhookEndpointIdSchema = z.object({ endpointId: z.string().min(1).max(64) })
export const WebhookDeliveryIdSchema = z.object({ deliveryId: z.string().min(1).max(200) })

/** An endpoint as its owner's settings list it (never its secret). */
export type WebhookEndpointView = {
  id: string
  url: string
  events: string[]
  status: 'active' | 'paused'
  pausedReason: string | null
  createdAt: string
}

/** One message to an endpoint as its deliveries page lists it. */
export type WebhookDeliveryView = {
  id: string
  type: string
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  responseStatus: number | null
  durationMs: number | null
  responseExcerpt: string | null
  lastAttemptAt: string | null
  createdAt: string
}
