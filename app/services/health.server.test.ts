import { describe, expect, test } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { checkHealth } from '~/services/health.server'
import packageJson from '../../package.json'
import { openScratchDatabase } from '../../tests/helpers/db'

describe('checkHealth', () => {
  test('is ok on a migrated database, with the version and a measured latency', async () => {
    const health = await checkHealth(database())
    expect(health).toMatchObject({
      status: 'ok',
      version: packageJson.version,
      database: { reachable: true },
      migrations: { isCurrent: true, expected: '0002_dashboard' },
    })
    expect(health.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(health.database.error).toBeUndefined()
    expect(Date.parse(health.checkedAt)).not.toBeNaN()
  })

  test('is degraded, reachable, when migrations are pending', async () => {
    const scratch = await openScratchDatabase()
    try {
      const health = await checkHealth(scratch.db)
      expect(health.status).toBe('degraded')
      expect(health.database.reachable).toBe(true)
      expect(health.migrations.isCurrent).toBe(false)
    } finally {
      scratch.close()
    }
  })

  test('is degraded and unreachable when the client is closed, without throwing', async () => {
    const scratch = await openScratchDatabase()
    await migrateDatabase(scratch.db)
    scratch.close()

    const health = await checkHealth(scratch.db)
    expect(health.status).toBe('degraded')
    expect(health.database).toMatchObject({ reachable: false, latencyMs: null })
    expect(health.database.error).toEqual(expect.any(String))
    expect(health.migrations.isCurrent).toBe(false)
  })

  test('is degraded and unreachable when the database server does not answer', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
    const db = openDatabase({ url: 'http://127.0.0.1:9' })
    try {
      const health = await checkHealth(db)
      expect(health.status).toBe('degraded')
      expect(health.database.reachable).toBe(false)
    } finally {
      db.$client.close()
    }
  })
})
