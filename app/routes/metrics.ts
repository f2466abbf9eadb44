import { createHash, timingSafeEqual } from 'node:crypto'
import { env } from '~/env.server'
import { metricsContentType, scrape } from '~/utils/metrics.server'

/**
 * Prometheus metrics on the app's own port, for a scraper that holds `METRICS_TOKEN` as a bearer
 * token (docs/decisions/044-metrics-traces-and-structured-logs.md). Without the variable the URL
 * does not exist (404); a wrong or missing token is a 401. In a cluster the answer covers every
 * worker (app/utils/metrics.server.ts asks the primary).
 */
export async function loader({ request }: { request: Request }) {
  const token = env().METRICS_TOKEN
  if (!token) throw new Response('Not Found', { status: 404 })
  if (!isBearer(request.headers.get('Authorization'), token)) {
    return new Response('Unauthorized\n', {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' },
    })
  }
  return new Response(await scrape(), {
    headers: { 'Content-Type': metricsContentType, 'Cache-Control': 'no-store' },
  })
}

/** Compared as hashes, so neither the length nor the bytes of the token leak through timing. */
function isBearer(header: string | null, token: string) {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(token))
}
