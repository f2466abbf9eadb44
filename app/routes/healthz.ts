import { database } from '~/db/client.server'
import { checkHealth } from '~/services/health.server'

/** For the platform's health checks: 200 when the database answers, 503 when it does not. */
export async function loader() {
  const health = await checkHealth(database())
  return Response.json(health, {
    status: health.database.reachable ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  })
}
