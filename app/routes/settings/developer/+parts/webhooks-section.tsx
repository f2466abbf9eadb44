import type { SubmissionResult } from '@conform-to/react'
import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { Link } from 'react-router'
import { ActionButton, ActionForm } from '~/components/action-form'
import { ErrorList, Field } from '~/components/forms'
import { SettingsSection } from '~/components/settings/section'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { Button, buttonClasses, StatusButton } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import {
  WEBHOOK_EVENTS,
  WebhookEndpointSchema,
  type WebhookEndpointView,
} from '~/services/webhooks/webhook-schemas'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'

/** What the webhooks forms answer: which form, conform's reply, and a new endpoint's secret once. */
export type WebhooksActionData =
  | {
      intent: string | null
      result: SubmissionResult<string[]> | null
      created?: { id: string; url: string; secret: string }
    }
  | undefined

const labelOf = (type: string) => WEBHOOK_EVENTS.find((event) => event.type === type)?.label ?? type

/** /settings/developer's webhooks: add an endpoint (its secret shown once), and each endpoint's controls. */
export function WebhooksSection({
  endpoints,
  actionData,
}: {
  endpoints: WebhookEndpointView[]
  actionData: WebhooksActionData
}) {
  const created = actionData?.intent === 'add-webhook' ? actionData.created : undefined
  return (
    <SettingsSection
      title="Webhooks"
      description="Threadwork POSTs a signed JSON message to your endpoint when something you can see changes (Standard Webhooks)."
    >
      {created ? <NewSecret created={created} /> : null}
      <AddEndpointForm actionData={actionData} />
      {endpoints.length > 0 ? (
        <ul className="mt-6 divide-y rounded-md border" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="flex flex-col gap-2 p-3" data-testid="webhook-endpoint">
              <EndpointSummary endpoint={endpoint} />
              <EndpointControls endpoint={endpoint} />
            </li>
          ))}
        </ul>
      ) : null}
    </SettingsSection>
  )
}

function NewSecret({ created }: { created: { url: string; secret: string } }) {
  const [isCopied, setIsCopied] = useState(false)
  return (
    <Alert tone="success" className="mb-4">
      <AlertTitle>Endpoint added: {created.url}</AlertTitle>
      <p>Copy its signing secret now; it is not shown again. Verify each message with it.</p>
      <div className="mt-2 flex gap-2">
        <input
          readOnly
          aria-label="Signing secret"
          value={created.secret}
          className="w-full rounded border bg-background px-2 py-1 font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => navigator.clipboard.writeText(created.secret).then(() => setIsCopied(true))}
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </Alert>
  )
}

function AddEndpointForm({ actionData }: { actionData: WebhooksActionData }) {
  const isPending = useIsPending({ intent: 'add-webhook' })
  const [form, fields] = useForm({
    id: 'add-webhook',
    lastResult: resultFor(actionData, 'add-webhook'),
    constraint: getZodConstraint(WebhookEndpointSchema),
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookEndpointSchema }),
  })
  const chosen = new Set(fields.events.initialValue ?? WEBHOOK_EVENTS.map((event) => event.type))
  return (
    <ActionForm intent="add-webhook" className="flex flex-col gap-4" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field
        label="Endpoint URL"
        meta={fields.url}
        type="url"
        placeholder="https://example.com/hooks/threadwork"
      />
      <fieldset>
        <legend className="text-sm font-medium">Events</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2" key={fields.events.key}>
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox
              key={event.type}
              name={fields.events.name}
              value={event.type}
              defaultChecked={chosen.has(event.type)}
              label={event.label}
            />
          ))}
        </div>
        <ErrorList id={fields.events.errorId} errors={fields.events.errors} />
      </fieldset>
      <StatusButton isPending={isPending} pendingText="Adding…" className="self-start">
        Add endpoint
      </StatusButton>
    </ActionForm>
  )
}

function EndpointSummary({ endpoint }: { endpoint: WebhookEndpointView }) {
  return (
    <div>
      <p className="break-all font-mono text-sm">
        {endpoint.url}{' '}
        {endpoint.status === 'paused' ? (
          <Badge tone="amber" weight="normal" className="ml-1">
            Paused
          </Badge>
        ) : null}
      </p>
      <p className="text-xs text-muted-foreground">
        {endpoint.events.map(labelOf).join(', ')}
        {endpoint.pausedReason ? ` · ${endpoint.pausedReason}` : ''}
      </p>
    </div>
  )
}

/** Send a test event, see deliveries, pause or resume, delete: each a form of its own. */
export function EndpointControls({ endpoint }: { endpoint: WebhookEndpointView }) {
  const isPaused = endpoint.status === 'paused'
  const fields = { endpointId: endpoint.id }
  return (
    <div className="flex flex-wrap gap-2">
      <ActionButton
        intent="test-webhook"
        fields={fields}
        label="Send test event"
        pendingText="Sending…"
        accessibleName={`Send test event for ${endpoint.url}`}
      />
      <Link to={`/settings/developer/webhooks/${endpoint.id}`} className={buttonClasses('outline', 'sm')}>
        Deliveries
      </Link>
      <ActionButton
        intent={isPaused ? 'resume-webhook' : 'pause-webhook'}
        fields={fields}
        label={isPaused ? 'Resume' : 'Pause'}
        pendingText={isPaused ? 'Resuming…' : 'Pausing…'}
        accessibleName={`${isPaused ? 'Resume' : 'Pause'} for ${endpoint.url}`}
      />
      <ActionButton
        intent="delete-webhook"
        fields={fields}
        label="Delete"
        pendingText="Deleting…"
        accessibleName={`Delete for ${endpoint.url}`}
        variant="destructive"
      />
    </div>
  )
}
