import { afterEach, describe, expect, test, vi } from 'vitest'
import { closeDatabase } from '~/db/client.server'
import { resetEnvForTests } from '~/env.server'
import type { Health } from '~/services/health.server'
import { callLoader } from '../../tests/helpers/route'
import { loader } from './healthz'

describe('/healthz', () => {
  afterEach(() => {
    // Back to this file's own database for the next test.
    vi.unstubAllEnvs()
    resetEnvForTests()
    closeDatabase()
  })

  test('answers 200 with the health report as JSON, never cached', async () => {
    const { status, headers, data } = await callLoader(loader, { url: '/healthz' })
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(data as Health).toMatchObject({ status: 'ok', database: { reachable: true } })
  })

  test('answers 503 when the database does not answer', async () => {
    // Point the app's database at a server that is not there, as a lost volume or network would.
    vi.stubEnv('DATABASE_URL', 'http://127.0.0.1:9')
    resetEnvForTests()
    closeDatabase()

    const { status, data } = await callLoader(loader, { url: '/healthz' })
    expect(status).toBe(503)
    expect(data as Health).toMatchObject({ status: 'degraded', database: { reachable: false } })
  })
})
