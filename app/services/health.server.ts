import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { migrationStatus } from '~/db/migrate.server'
import packageJson from '../../package.json'

export type Health = {
  status: 'ok' | 'degraded'
  version: string
  database: { reachable: boolean; latencyMs: number | null; error?: string }
  migrations: { isCurrent: boolean; expected: string | null }
  uptimeSeconds: number
  checkedAt: string
}

/**
 * Whether this instance can serve: the database answers and its schema is the one this build
 * expects. Never throws — an unhealthy answer is still an answer.
 */
export async function checkHealth(db: Database): Promise<Health> {
  const started = performance.now()
  let database: Health['database']
  let migrations: Health['migrations'] = { isCurrent: false, expected: null }
  try {
    await db.run(sql`SELECT 1`)
    database = { reachable: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 }
    migrations = await migrationStatus(db)
  } catch (error) {
    database = {
      reachable: false,
      latencyMs: null,
      error: error instanceof Error ? error.message : String(error),
    }
  }
  return {
    status: database.reachable && migrations.isCurrent ? 'ok' : 'degraded',
    version: packageJson.version,
    database,
    migrations,
    uptimeSeconds: Math.round(process.uptime()),
    checkedAt: new Date().toISOString(),
  }
}
