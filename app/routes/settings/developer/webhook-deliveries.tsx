import { data } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionButton } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { SettingsSection } from '~/components/settings/section'
import { Badge } from '~/components/ui/badge'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { isDomainError } from '~/services/errors'
import { ENDPOINT_NOT_FOUND, listWebhookDeliveries } from '~/services/webhooks/endpoints.server'
import type { WebhookDeliveryView } from '~/services/webhooks/webhook-schemas'
import { readFormData } from '~/utils/form-data.server'
import { WebhookIntent, webhookChanges } from './+parts/webhooks.server'
import { EndpointControls } from './+parts/webhooks-section'
import type { Route } from './+types/webhook-deliveries'

/**
 * /settings/developer/webhooks/:endpointId: one endpoint's latest messages — event, outcome,
 * duration, attempts — each with "Redeliver", and the endpoint's own controls. Another person's
 * endpoint is a 404 ('Webhook endpoint not found').
 */

export const meta: Route.MetaFunction = () => [{ title: 'Webhook deliveries | Threadwork' }]

export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  try {
    return await listWebhookDeliveries(database(), user, params.endpointId)
  } catch (error) {
    if (isDomainError(error)) throw data(ENDPOINT_NOT_FOUND, { status: 404 })
    throw error
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  return handleForm(
    await readFormData(request),
    WebhookIntent,
    webhookChanges(database(), user, url.pathname),
  )
}

const STATUS_TONES = { succeeded: 'green', failed: 'red', pending: 'amber' } as const

export default function WebhookDeliveries({ loaderData }: Route.ComponentProps) {
  const { endpoint, deliveries } = loaderData
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-12">
      <div>
        <h1 className="text-2xl font-semibold">Webhook deliveries</h1>
        <p className="break-all font-mono text-sm text-muted-foreground">{endpoint.url}</p>
      </div>
      <EndpointControls endpoint={endpoint} />
      <SettingsSection
        title="Last deliveries"
        description="The newest first; a message keeps its webhook-id on every attempt."
      >
        {deliveries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th className="py-2">Event</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Attempt</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {deliveries.map((delivery) => (
                <DeliveryRow key={delivery.id} endpointId={endpoint.id} delivery={delivery} />
              ))}
            </tbody>
          </table>
        )}
      </SettingsSection>
    </main>
  )
}

function DeliveryRow({ endpointId, delivery }: { endpointId: string; delivery: WebhookDeliveryView }) {
  return (
    <tr data-testid="webhook-delivery">
      <td className="py-2">
        <p className="font-mono">{delivery.type}</p>
        <p className="text-xs text-muted-foreground" title={delivery.responseExcerpt ?? undefined}>
          {delivery.id}
        </p>
      </td>
      <td>
        <Badge tone={STATUS_TONES[delivery.status]} weight="normal">
          {delivery.status}
        </Badge>{' '}
        {delivery.responseStatus ?? ''}
      </td>
      <td>{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</td>
      <td>{delivery.attempts}</td>
      <td className="text-right">
        <ActionButton
          intent="redeliver-webhook"
          fields={{ endpointId, deliveryId: delivery.id }}
          label="Redeliver"
          pendingText="Queuing…"
        />
      </td>
    </tr>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
