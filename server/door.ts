import type { IncomingMessage, ServerResponse } from 'node:http'
import { isDatabaseUnavailable } from '~/db/unavailable.server'

/**
 * A request answered ahead of React Router (server/fast-paths.ts lists every one): `matches` says,
 * cheaply, whether it is this door's; `handle` answers it, or calls `next` to let the router do so.
 */
export type Door = {
  matches(req: IncomingMessage): boolean
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void
}

/**
 * A door that failed before answering hands the request to the router, which answers it as it
 * answers any failure: an unreachable database is its 503 and its one log line
 * (app/entry.server.tsx), never a second wording. Anything else is a bug of the door: logged.
 */
export function passOnFailure(res: ServerResponse, next: () => void) {
  return (error: unknown) => {
    if (!isDatabaseUnavailable(error)) console.error('Fast path failed', error)
    if (res.headersSent) res.destroy()
    else next()
  }
}
