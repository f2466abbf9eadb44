import { Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { STATUSES } from '~/domain/constants'
import { countOwnTasksByStatus } from '~/services/dashboard.server'
import type { Route } from './+types/dashboard'

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Threadwork' }]

/** A first, honest dashboard: who you are and where your own tasks stand. */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  return { user, ...(await countOwnTasksByStatus(database(), user)) }
}

export default function Dashboard({ loaderData: { user, byStatus, total } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-2xl font-semibold">Welcome back{user.name ? `, ${user.name}` : ''}</h1>
      <p className="mt-2 text-muted-foreground">
        {total === 0 ? 'You have no tasks yet.' : `You own ${total} ${total === 1 ? 'task' : 'tasks'}.`}
      </p>
      <dl className="mt-8 grid gap-4 sm:grid-cols-3">
        {STATUSES.map((status) => (
          <div key={status} className="rounded-lg border bg-card p-5">
            <dt className="text-sm text-muted-foreground">{status}</dt>
            <dd className="mt-1 text-3xl font-semibold tabular-nums">{byStatus[status]}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-8 text-sm text-muted-foreground">
        Manage your profile, password and devices in{' '}
        <Link to="/settings" className="text-primary underline underline-offset-4">
          settings
        </Link>
        .
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
