import { callerOf } from '~/auth/context.server'
import { eventStreams } from '~/streams/event-streams.server'
import type { Route } from './+types/events'

/**
 * `GET /api/events/tasks` and `GET /api/events/comments?taskId=` through React Router: what
 * answers them under `npm run dev` and with `FAST_PATHS=off`. In production they are answered
 * ahead of the router by the same process-wide streams (server/fast-paths.ts), and a parity test
 * holds the two ways to the same answers (tests/integration/fast-paths-parity.test.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return eventStreams().respond(request, await callerOf(request, context))
}

/**
 * A stream is only read. Any other method React Router accepts passes the root middleware first
 * (a mutation without a CSRF token is a 403, as everywhere), then gets this 405.
 */
export async function action() {
  return Response.json(
    { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
    { status: 405, headers: { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' } },
  )
}
