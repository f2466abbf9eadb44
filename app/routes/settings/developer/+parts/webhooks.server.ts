import { data } from 'react-router'
import type { Database } from '~/db/client.server'
import type { IntentChanges } from '~/http/form-action.server'
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
import { z } from '~/utils/zod'

/**
 * The webhooks section's server side: what the developer page loads for it, and one change per
 * form (`intent`), shared by /settings/developer and an endpoint's deliveries page.
 */

export function webhooksLoaderData(db: Database, actor: Actor) {
  return listWebhookEndpoints(db, actor)
}

/** The section's forms, each named by its hidden `intent` field. */
export const WEBHOOK_FORMS = [
  WebhookEndpointSchema.safeExtend({ intent: z.literal('add-webhook') }),
  WebhookEndpointIdSchema.safeExtend({ intent: z.literal('test-webhook') }),
  WebhookEndpointIdSchema.safeExtend({ intent: z.literal('pause-webhook') }),
  WebhookEndpointIdSchema.safeExtend({ intent: z.literal('resume-webhook') }),
  WebhookEndpointIdSchema.safeExtend({ intent: z.literal('delete-webhook') }),
  WebhookEndpointIdSchema.merge(WebhookDeliveryIdSchema).safeExtend({
    intent: z.literal('redeliver-webhook'),
  }),
] as const
export const WebhookIntent = z.discriminatedUnion('intent', WEBHOOK_FORMS)

/** What an endpoint's forms do, with the toast each leaves, then back to `backTo`. */
const ENDPOINT_CHANGES = {
  'test-webhook': { change: sendTestEvent, title: 'Test event queued' },
  'pause-webhook': { change: pauseWebhookEndpoint, title: 'Endpoint paused' },
  'resume-webhook': { change: resumeWebhookEndpoint, title: 'Endpoint resumed' },
  'delete-webhook': { change: deleteWebhookEndpoint, title: 'Endpoint deleted' },
} as const

/** The section's changes, for handleForm; `backTo` is the page the form was on. */
export function webhookChanges(db: Database, actor: Actor, backTo: string) {
  const endpointChange =
    (intent: keyof typeof ENDPOINT_CHANGES) =>
    async ({ endpointId }: { endpointId: string }) => {
      const { change, title } = ENDPOINT_CHANGES[intent]
      await change(db, actor, endpointId)
      // A deleted endpoint's page is gone: back to the list.
      return redirectWithToast(intent === 'delete-webhook' ? '/settings/developer' : backTo, {
        type: 'success',
        title,
      })
    }
  return {
    'add-webhook': async ({ intent, ...endpoint }, form) => {
      const { id, secret } = await addWebhookEndpoint(db, actor, endpoint)
      // The secret is shown this once: an answer, not a redirect that would have to carry it.
      return data({
        intent,
        result: form.reply({ resetForm: true }),
        created: { id, url: endpoint.url, secret },
      })
    },
    'redeliver-webhook': async ({ endpointId, deliveryId }) => {
      await redeliver(db, actor, endpointId, deliveryId)
      return redirectWithToast(backTo, { type: 'success', title: 'Redelivery queued' })
    },
    'test-webhook': endpointChange('test-webhook'),
    'pause-webhook': endpointChange('pause-webhook'),
    'resume-webhook': endpointChange('resume-webhook'),
    'delete-webhook': endpointChange('delete-webhook'),
  } satisfies IntentChanges<typeof WebhookIntent>
}
