import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '~/db/client.server'
import { type EventStreams, streamUrlOf } from '~/streams/event-streams.server'
import type { Door } from './door'
import { createHealthCheck } from './health-check'
import { createVersionedReads } from './versioned-reads'

/**
 * Every request answered ahead of React Router, and why: the only doors around the router
 * (docs/decisions/035-doors-ahead-of-the-router.md). Each is a cost the router path could not
 * meet, measured in its decision; each has a route in app/routes.ts that gives the same answer,
 * which `FAST_PATHS=off` (app/env.server.ts) uses for everything. A door resolves the session with
 * the root middleware's own `resolveSession` (app/auth/context.server.ts), sends what it renewed,
 * and leaves security headers and the request log to the steps before it (server/app.ts), so the
 * two ways answer alike; tests/integration/fast-paths-parity.test.ts sends every door's requests
 * both ways and compares. No new door without a row here and its parity cases there.
 *
 * Not doors in this sense, and the same under either setting: the request adapter's own refusals
 * of what a Fetch Request cannot carry (server/listener.ts), and the static files of the build,
 * which need no session and have no route.
 */
export type FastPath = Door & {
  name: string
  /** Why the router path is not enough, with the decision that measured it. */
  reason: string
  decision: string
}

export function fastPaths({
  db,
  eventStreams,
}: {
  db: () => Database
  eventStreams: () => EventStreams
}): FastPath[] {
  return [
    {
      name: 'health',
      reason:
        'GET /healthz: platforms probe it often; the router and its middleware cost several times the check, and probes arriving during a check share it',
      decision: 'docs/decisions/027-pages-and-health-near-the-framework-floor.md',
      ...createHealthCheck(db),
    },
    {
      name: 'event streams',
      reason:
        'GET /api/events/tasks and /api/events/comments: a stream through a Fetch Response costs twice the memory per subscriber and misses the fan-out goal',
      decision: 'docs/decisions/023-event-streams-ahead-of-the-router.md',
      matches: (req) => streamUrlOf(req) !== null,
      handle: (req, res, next) => eventStreams().handle(req, res, next),
    },
    {
      name: 'versioned reads',
      reason:
        'GET /api/rpc/… of a read pages poll: an unchanged poll costs a session lookup and one index probe, less than the router alone; anything else passes on to the route',
      decision: 'docs/decisions/028-reads-versioned-by-the-event-log.md',
      ...createVersionedReads(),
    },
  ]
}

/**
 * The doors as one node:http step: the first that matches answers (or passes on), else the
 * router. `nameRoute` gives the request its door's name for its log line, metrics and span; a
 * door that passes on is named again by the route the router matches.
 */
export function fastPathStep(
  doors: (Door & { name?: string })[],
  nameRoute: (req: IncomingMessage, route: string) => void = () => {},
) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    for (const door of doors) {
      if (door.matches(req)) {
        if (door.name) nameRoute(req, door.name)
        return door.handle(req, res, next)
      }
    }
    next()
  }
}
