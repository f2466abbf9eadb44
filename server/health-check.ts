import type { IncomingMessage, ServerResponse } from 'node:http'
import { resolveSession } from '~/auth/context.server'
import type { Database } from '~/db/client.server'
import { checkHealth, type Health } from '~/services/health.server'
import { type Door, passOnFailure } from './door'

/**
 * `GET /healthz`, answered ahead of compression and React Router: a platform's health check asks
 * often and wants a cheap answer, and the router, its root middleware and a Fetch Request and
 * Response cost several times what the check itself does
 * (docs/decisions/027-pages-and-health-near-the-framework-floor.md). The route module
 * (app/routes/healthz.ts) gives the same answer with `FAST_PATHS=off`, under `npm run dev` and for
 * any other target (`/healthz?…`). Probes that arrive while a check is running share it, so a
 * burst of them costs one check, and no answer is older than its request: it comes from a check
 * that was still running when the request arrived.
 */
export function createHealthCheck(db: () => Database): Door {
  let running: Promise<Health> | null = null
  const check = () => {
    running ??= checkHealth(db()).finally(() => {
      running = null
    })
    return running
  }
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    // A probe sends no cookie and pays nothing here; a browser's session is renewed as anywhere.
    const setCookies = req.headers.cookie ? (await resolveSession(req.headers.cookie)).setCookies : []
    const health = await check()
    const body = JSON.stringify(health)
    if (setCookies.length > 0) res.appendHeader('Set-Cookie', setCookies)
    res.writeHead(health.database.reachable ? 200 : 503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      // As the compression step adds it to the route's JSON, so a cache never mixes the two.
      Vary: 'Accept-Encoding',
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
  return {
    matches: (req) => req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD'),
    handle(req, res, next) {
      answer(req, res).catch(passOnFailure(res, next))
    },
  }
}
