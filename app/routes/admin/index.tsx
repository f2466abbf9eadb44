import { Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { database } from '~/db/client.server'
import { searchPeople } from '~/services/admin/people.server'
import { AdminPage, AdminSearch, When } from './+parts/admin-page'
import type { Route } from './+types/index'

/** /admin: people, found by name or e-mail address, newest first. */

export const meta: Route.MetaFunction = () => [{ title: 'People | Admin | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const query = url.searchParams.get('q')?.slice(0, 200) ?? ''
  return { query, people: await searchPeople(database(), query) }
}

export default function AdminPeople({ loaderData }: Route.ComponentProps) {
  const { query, people } = loaderData
  return (
    <AdminPage
      title="People"
      description="Find a person by name or e-mail address to see and help their account."
    >
      <AdminSearch id="admin-people-q" label="Name or e-mail" query={query} />
      <section aria-labelledby="admin-people-results">
        <h2 id="admin-people-results" className="text-lg font-semibold">
          {query ? `Matching “${query}”` : 'Newest people'}
        </h2>
        {people.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">Nobody matches.</p>
        ) : (
          <ul className="mt-3 divide-y rounded-md border">
            {people.map((person) => (
              <li key={person.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
                <div className="min-w-0">
                  <Link
                    to={`/admin/people/${person.id}`}
                    className="font-medium underline-offset-4 hover:underline"
                  >
                    {person.name || person.email}
                  </Link>
                  <p className="truncate text-sm text-muted-foreground">{person.email}</p>
                </div>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  {person.disabledAt ? <Badge tone="red">Disabled</Badge> : null}
                  <Badge tone={person.emailVerifiedAt ? 'green' : 'amber'}>
                    {person.emailVerifiedAt ? 'Verified' : 'Unverified'}
                  </Badge>
                  <Badge tone="outline">{person.plan}</Badge>
                  <span className="text-muted-foreground">
                    {person.sessions ?? 0} {person.sessions === 1 ? 'session' : 'sessions'} · joined{' '}
                    <When at={person.createdAt} />
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </AdminPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
