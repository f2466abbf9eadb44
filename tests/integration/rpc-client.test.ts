import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * The contract of docs/product-rules.md §5 from the outside: `@orpc/client`'s RPCLink, unchanged, over real
 * HTTP against the app's /api/rpc route module.
 */
describe('@orpc/client against /api/rpc', () => {
  let server: RpcServer
  beforeAll(async () => {
    server = await startRpcServer()
  })
  afterAll(() => server.close())

  test('calls healthCheck by POST', async () => {
    const health = await server.client({ method: 'POST' }).healthCheck()
    expect(health.status).toBe('ok')
    expect(health.database.reachable).toBe(true)
    expect(health.migrations.isCurrent).toBe(true)
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST' })
    expect(server.requests.at(-1)?.url).toMatch(/\/api\/rpc\/healthCheck$/)
  })

  test('calls healthCheck by GET, so reads can be cached and retried', async () => {
    const health = await server.client({ method: 'GET' }).healthCheck()
    expect(health.status).toBe('ok')
    expect(typeof health.version).toBe('string')
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET' })
  })

  test('a procedure that does not exist is NOT_FOUND for the client', async () => {
    const client = server.client() as unknown as { noSuchProcedure: () => Promise<unknown> }
    await expect(client.noSuchProcedure()).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 })
  })
})
