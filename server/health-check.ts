import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '~/db/client.server'
import { checkHealth, type Health } from '~/services/health.server'

/**
 * `GET /healthz`, answered here, ahead of compression and React Router: a platform's health
 * check asks often and wants a cheap answer, and the router, its root middleware (a session
 * lookup) and a Fetch Request and Response cost several times what the check itself does
 * (docs/decisions/027-pages-and-health-near-the-framework-floor.md). The route module
 * (app/routes/healthz.ts) gives the same answer under `npm run dev` and for any other target
 * (`/healthz?…`). Probes that arrive while a check is running share it, so a burst of them costs
 * one check, and no answer is older than its request: it comes from a check that was still
 * running when the request arrived.
 */
export function createHealthCheck(db: () => Database) {
  let running: Promise<Health> | null = null
  const check = () => {
    running ??= checkHealth(db()).finally(() => {
      running = null
    })
    return running
  }
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.url !== '/healthz' || (req.method !== 'GET' && req.method !== 'HEAD')) return next()
    void check().then((health) => {
      const body = JSON.stringify(health)
      res.writeHead(health.database.reachable ? 200 : 503, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': 'no-store',
      })
      res.end(req.method === 'HEAD' ? undefined : body)
    })
  }
}
