import { describe, expect, test } from 'vitest'
import { handleRpc } from '~/rpc/handler.server'
import type { Health } from '~/services/health.server'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../../tests/helpers/rpc'

const ANONYMOUS = { user: null, isCsrfValid: false }

describe('handleRpc', () => {
  test.each(['POST', 'GET'] as const)('answers healthCheck by %s with the health report', async (method) => {
    const response = await handleRpc(rpcRequest('healthCheck', undefined, { method }), ANONYMOUS)
    expect(response?.status).toBe(200)
    const body = (await response?.json()) as { json: Health }
    expect(body.json).toMatchObject({ status: 'ok', database: { reachable: true } })
  })

  test('leaves paths that are no procedure to the route', async () => {
    expect(await handleRpc(rpcRequest('noSuchProcedure'), ANONYMOUS)).toBeUndefined()
    expect(await handleRpc(rpcRequest('task/noSuchProcedure'), ANONYMOUS)).toBeUndefined()
  })
})

describe('/api/rpc route', () => {
  test('answers an unknown procedure with a JSON 404', async () => {
    const response = await answerThroughRpcRoute(rpcRequest('noSuchProcedure'))
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'No such procedure' })
  })

  test('answers healthCheck through the route module', async () => {
    const response = await answerThroughRpcRoute(rpcRequest('healthCheck', undefined, { method: 'GET' }))
    expect(response.status).toBe(200)
    expect(await readRpcJson(response)).toMatchObject({ status: 'ok' })
  })
})
