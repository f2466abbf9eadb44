import { Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { AUDIT_PAGE_SIZE, listAudit } from '~/services/admin/audit.server'
import { AdminPage } from './+parts/admin-page'
import { AuditTable } from './+parts/audit-table'
import type { Route } from './+types/audit'

/** /admin/audit: every admin action, newest first, a page at a time. Read-only. */

export const meta: Route.MetaFunction = () => [{ title: 'Audit log | Admin | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const before = Number(url.searchParams.get('before'))
  const entries = await listAudit(database(), { before: before > 0 ? new Date(before) : undefined })
  const oldest = entries.at(-1)
  return {
    entries,
    olderHref:
      entries.length === AUDIT_PAGE_SIZE && oldest
        ? `/admin/audit?before=${oldest.createdAt.getTime()}`
        : null,
  }
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Audit log"
      description="Who did what in this console, to whom, when and from which address. It cannot be changed."
    >
      <AuditTable entries={loaderData.entries} />
      {loaderData.olderHref ? (
        <Link to={loaderData.olderHref} className="text-sm underline">
          Older entries
        </Link>
      ) : null}
    </AdminPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
