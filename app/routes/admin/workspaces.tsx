import { Form, Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { database } from '~/db/client.server'
import { listAllWorkspaces, type WorkspacesCursor } from '~/services/admin/workspaces.server'
import { useIsPending } from '~/utils/pending'
import { AdminPage, When } from './+parts/admin-page'
import type { Route } from './+types/workspaces'

/**
 * /admin/workspaces: team workspaces (and, asked for, every account's personal one), newest
 * first, a page at a time, with each one's owner, members and tasks counted. Read-only.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Workspaces | Admin | Threadwork' }]

/** The page after another: `before` the last row's creation time (ms), `id` its id. */
function cursorOf(params: URLSearchParams): WorkspacesCursor | undefined {
  const before = Number(params.get('before'))
  const id = params.get('id')?.slice(0, 64)
  return before > 0 && id ? { createdAt: new Date(before), id } : undefined
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const includePersonal = url.searchParams.get('all') === '1'
  const { workspaces, next } = await listAllWorkspaces(database(), {
    includePersonal,
    before: cursorOf(url.searchParams),
  })
  const olderParams = next
    ? new URLSearchParams({
        ...(includePersonal ? { all: '1' } : {}),
        before: String(next.createdAt.getTime()),
        id: next.id,
      })
    : null
  return {
    includePersonal,
    workspaces,
    olderHref: olderParams ? `/admin/workspaces?${olderParams}` : null,
  }
}

export default function AdminWorkspaces({ loaderData }: Route.ComponentProps) {
  const { includePersonal, workspaces, olderHref } = loaderData
  const isFiltering = useIsPending({ formMethod: 'GET' })
  return (
    <AdminPage
      title="Workspaces"
      description="Team workspaces with their owner, members and tasks; every account's personal one when asked for."
    >
      <Form method="get" className="flex flex-wrap items-center gap-3">
        <Checkbox name="all" value="1" defaultChecked={includePersonal} label="Include personal workspaces" />
        <StatusButton type="submit" variant="outline" isPending={isFiltering} pendingText="Showing…">
          Show
        </StatusButton>
      </Form>
      {workspaces.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {includePersonal ? 'No workspaces yet.' : 'No team workspaces yet.'}
        </p>
      ) : (
        <ul className="divide-y rounded-md border">
          {workspaces.map((workspace) => (
            <li
              key={workspace.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
              data-testid="workspace-row"
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {workspace.name}
                  {workspace.isPersonal ? <Badge tone="outline">Personal</Badge> : null}
                </p>
                <p className="truncate font-mono text-xs text-muted-foreground">{workspace.slug}</p>
              </div>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground">
                <span>
                  Owner:{' '}
                  {workspace.ownerId ? (
                    <Link
                      to={`/admin/people/${workspace.ownerId}`}
                      className="text-foreground underline-offset-4 hover:underline"
                    >
                      {workspace.ownerName || workspace.ownerEmail}
                    </Link>
                  ) : (
                    '—'
                  )}
                </span>
                <span>
                  {workspace.memberCount} {workspace.memberCount === 1 ? 'member' : 'members'}
                </span>
                <span>
                  {workspace.taskCount} {workspace.taskCount === 1 ? 'task' : 'tasks'}
                </span>
                <span>
                  created <When at={workspace.createdAt} />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {olderHref ? (
        <Link to={olderHref} className="text-sm underline">
          Older workspaces
        </Link>
      ) : null}
    </AdminPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
