import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { readFormData } from '~/utils/form-data.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import { type CreatedToken, TokensSection } from './+parts/tokens'
import { loadTokens, TOKEN_FORMS, tokenChanges } from './+parts/tokens.server'
import { WEBHOOK_FORMS, webhookChanges, webhooksLoaderData } from './+parts/webhooks.server'
import { WebhooksSection } from './+parts/webhooks-section'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = () => [{ title: 'Developer settings | Threadwork' }]

/**
 * /settings/developer: what lets other programs work with a person's tasks — API tokens and
 * webhook endpoints. Each section reads its own data and answers its own intents (its `+parts/`),
 * so a section is added beside the others without touching them.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const [tokens, webhooks] = await Promise.all([loadTokens(db, user), webhooksLoaderData(db, user)])
  return { tokens, webhooks }
}

/** The page's forms: each section's, named by their hidden `intent` field. */
const DeveloperIntent = z.discriminatedUnion('intent', [...TOKEN_FORMS, ...WEBHOOK_FORMS])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  return handleForm(await readFormData(request), DeveloperIntent, {
    ...tokenChanges(db, user),
    ...webhookChanges(db, user, '/settings/developer'),
  })
}

export default function DeveloperSettings({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useKeptActionData(answered)
  // The secret is in this one answer only; a live update of the page must not bring it back.
  const created =
    answered && 'created' in answered && answered.intent === 'create-token'
      ? (answered.created as CreatedToken | undefined)
      : undefined
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div>
        <h1 className="text-2xl font-semibold">Developer settings</h1>
        <p className="text-sm text-muted-foreground">
          Connect scripts and AI agents to your tasks, and tell other systems what changed. How:{' '}
          <a className="underline" href="/docs/developer-platform">
            the developer platform docs
          </a>
          .
        </p>
      </div>
      <TokensSection tokens={loaderData.tokens} created={created} actionData={actionData} />
      <WebhooksSection endpoints={loaderData.webhooks} actionData={actionData as never} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
