import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { Database } from '~/db/client.server'
import { replyWithError } from '~/http/refusals.server'
import type { Actor } from '~/services/session-user'
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  pauseWebhookEndpoint,
  redeliver,
  resumeWebhookEndpoint,
  sendTestEvent,
} from '~/services/webhooks/endpoints.server'
import {
  WebhookDeliveryIdSchema,
  WebhookEndpointIdSchema,
  WebhookEndpointSchema,
} from '~/services/webhooks/webhook-schemas'
import { redirectWithToast } from '~/toast.server'

/**
 * The webhooks section's server side: what the developer page loads for it, and one handler per
 * form (`intent`), shared by /settings/developer and an endpoint's deliveries page.
 */

export function webhooksLoaderData(db: Database, actor: Actor) {
  return listWebhookEndpoints(db, actor)
}

export const WEBHOOK_INTENTS = [
  'add-webhook',
  'test-webhook',
  'pause-webhook',
  'resume-webhook',
  'delete-webhook',
  'redeliver-webhook',
] as const
export type WebhookIntent = (typeof WEBHOOK_INTENTS)[number]

export function isWebhookIntent(intent: unknown): intent is WebhookIntent {
  return WEBHOOK_INTENTS.includes(intent as WebhookIntent)
}

/** What an endpoint's forms do, with the toast each leaves, then back to `backTo`. */
const ENDPOINT_CHANGES = {
  'test-webhook': { change: sendTestEvent, title: 'Test event queued' },
  'pause-webhook': { change: pauseWebhookEndpoint, title: 'Endpoint paused' },
  'resume-webhook': { change: resumeWebhookEndpoint, title: 'Endpoint resumed' },
  'delete-webhook': { change: deleteWebhookEndpoint, title: 'Endpoint deleted' },
} as const

export async function webhookAction(
  db: Database,
  actor: Actor,
  intent: WebhookIntent,
  formData: FormData,
  backTo: string,
) {
  switch (intent) {
    case 'add-webhook': {
      const submission = parseWithZod(formData, { schema: WebhookEndpointSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        const { id, secret } = await addWebhookEndpoint(db, actor, submission.value)
        // The secret is shown this once: an answer, not a redirect that would have to carry it.
        return data({
          intent,
          result: submission.reply({ resetForm: true }),
          created: { id, url: submission.value.url, secret },
        })
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
    }
    case 'redeliver-webhook': {
      const submission = parseWithZod(formData, {
        schema: WebhookEndpointIdSchema.merge(WebhookDeliveryIdSchema),
      })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      try {
        await redeliver(db, actor, submission.value.endpointId, submission.value.deliveryId)
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
      return redirectWithToast(backTo, { type: 'success', title: 'Redelivery queued' })
    }
    default: {
      const submission = parseWithZod(formData, { schema: WebhookEndpointIdSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      const { change, title } = ENDPOINT_CHANGES[intent]
      try {
        await change(db, actor, submission.value.endpointId)
      } catch (error) {
        return replyWithError(submission, error, { body: { intent } })
      }
      // A deleted endpoint's page is gone: back to the list.
      return redirectWithToast(intent === 'delete-webhook' ? '/settings/developer' : backTo, {
        type: 'success',
        title,
      })
    }
  }
}
