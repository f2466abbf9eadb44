import { data } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { checkHealth } from '~/services/health.server'
import { cn } from '~/utils/cn'
import type { Route } from './+types/tss'

export const meta: Route.MetaFunction = () => [
  { title: 'Status | Threadwork' },
  { name: 'description', content: 'Whether Threadwork is up: database, schema and version.' },
  { name: 'robots', content: 'noindex' },
]

/**
 * The status page: whether this instance can serve — the database answers and its schema is the
 * one this build expects — with its version and uptime, for a person checking on it (an operator
 * after a deploy, anyone asked whether the app is up). It answers 503 whenever the instance is
 * degraded, a schema behind included, so an uptime monitor pointed at it alerts; never cached,
 * never indexed. The report is `checkHealth` (app/services/health.server.ts), the one /healthz
 * sends load balancers as JSON (503 there only while the database is out of reach). Monitors and
 * links already use the path, so it stays /tss.
 */
export async function loader() {
  const health = await checkHealth(database())
  return data(health, {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  })
}

export default function Status({ loaderData: health }: Route.ComponentProps) {
  const rows: [string, string, boolean][] = [
    [
      'Database',
      health.database.reachable ? `Reachable (${health.database.latencyMs} ms)` : 'Unreachable',
      health.database.reachable,
    ],
    [
      'Schema',
      health.migrations.isCurrent
        ? `Current (${health.migrations.expected ?? 'none'})`
        : 'Migrations pending',
      health.migrations.isCurrent,
    ],
    ['Version', health.version, true],
    ['Uptime', formatUptime(health.uptimeSeconds), true],
  ]
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-semibold">
        {health.status === 'ok' ? 'All systems operational' : 'Degraded service'}
      </h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Checked <time dateTime={health.checkedAt}>{new Date(health.checkedAt).toUTCString()}</time>
      </p>
      <dl className="mt-8 divide-y rounded-lg border">
        {rows.map(([label, value, isOk]) => (
          <div key={label} className="flex items-center justify-between gap-4 px-4 py-3">
            <dt className="font-medium">{label}</dt>
            <dd className="flex items-center gap-2 text-sm">
              <span
                aria-hidden
                className={cn('size-2 rounded-full', isOk ? 'bg-emerald-500' : 'bg-red-500')}
              />
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </main>
  )
}

function formatUptime(seconds: number) {
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  return hours > 0 ? `${hours} h ${minutes} min` : minutes > 0 ? `${minutes} min` : `${seconds} s`
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
