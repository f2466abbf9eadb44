import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { readFormData } from '~/utils/form-data.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { isWebhookIntent, webhookAction, webhooksLoaderData } from './+parts/webhooks.server'
import { WebhooksSection } from './+parts/webhooks-section'
import type { Route } from './+types/index'

/**
 * /settings/developer: what programs may do for the person. Each part is a section of its own
 * (`+parts/`), with its loader data and the handlers of its forms' intents.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Developer settings | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  return { webhooks: await webhooksLoaderData(database(), user) }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (isWebhookIntent(intent)) return webhookAction(database(), user, intent, formData, '/settings/developer')
  return new Response(null, { status: 400 })
}

export default function DeveloperSettings({ loaderData, actionData }: Route.ComponentProps) {
  const kept = useKeptActionData(actionData)
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <h1 className="text-2xl font-semibold">Developer settings</h1>
      <WebhooksSection endpoints={loaderData.webhooks} actionData={kept} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
