import { afterEach, describe, expect, test, vi } from 'vitest'
import { closeDatabase } from '~/db/client.server'
import { resetEnvForTests } from '~/env.server'
import { callLoader } from '../../tests/helpers/route'
import { loader } from './tss'

describe('/tss loader', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    resetEnvForTests()
    closeDatabase()
  })

  test('reports a healthy instance with 200, never cached', async () => {
    const { status, headers, data } = await callLoader(loader, { url: '/tss' })
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(data.status).toBe('ok')
    expect(data.database.reachable).toBe(true)
    expect(data.migrations).toEqual({ isCurrent: true, expected: '0002_dashboard' })
  })

  test('reports a degraded instance with 503 so monitors notice', async () => {
    vi.stubEnv('DATABASE_URL', 'http://127.0.0.1:9')
    resetEnvForTests()
    closeDatabase()

    const { status, data } = await callLoader(loader, { url: '/tss' })
    expect(status).toBe(503)
    expect(data.status).toBe('degraded')
  })
})
