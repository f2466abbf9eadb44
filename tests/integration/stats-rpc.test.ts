import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { signedInBrowser } from '../helpers/auth'
import { createTask, createUser } from '../helpers/factories'
import {
  answerThroughRpcRoute,
  type RpcServer,
  readRpcJson,
  rpcRequest,
  startRpcServer,
} from '../helpers/rpc'

/**
 * The dashboard's four reads over /api/rpc: GET-able through `@orpc/client`, the same service
 * the page uses behind them, 401 for anonymous callers, and weeks in the zone of the `tz` cookie.
 */

const db = database()
let server: RpcServer

beforeAll(async () => {
  server = await startRpcServer()
})
afterAll(() => server.close())

const PROCEDURES = [
  'task/getTaskStats',
  'task/getProductivityInsights',
  'task/getMostRecentCompleted',
  'task/getMostRecentCreated',
] as const

describe('dashboard reads over RPC', () => {
  test('answer a signed-in caller by GET with the service numbers', async () => {
    const ada = await createUser(db)
    const first = await createTask(db, {
      userId: ada.id,
      status: 'Completed',
      completedAt: new Date(),
      hrs: 2,
    })
    const second = await createTask(db, { userId: ada.id, createdAt: new Date(Date.now() + 1000) })
    const client = server.clientAs(await signedInBrowser(db, ada.id), { method: 'GET' })

    const stats = await client.task.getTaskStats()
    const insights = await client.task.getProductivityInsights()
    const completed = await client.task.getMostRecentCompleted()
    const created = await client.task.getMostRecentCreated()

    expect(stats.own).toMatchObject({ total: 2, hoursCompleted: 2, completionRate: 50 })
    expect(insights).toMatchObject({ completedThisWeek: 1, timeZone: 'UTC', currentStreakDays: 1 })
    expect(completed?.id).toBe(first.id)
    expect(created?.id).toBe(second.id)
    const methods = server.requests.slice(-4).map((request) => request.method)
    expect(methods).toEqual(['GET', 'GET', 'GET', 'GET'])
  })

  test.each(PROCEDURES)('%s answers an anonymous caller 401 UNAUTHORIZED', async (procedure) => {
    const response = await answerThroughRpcRoute(rpcRequest(procedure, undefined, { method: 'GET' }))

    expect(response.status).toBe(401)
    expect(await readRpcJson(response)).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  test('weeks follow the tz cookie; a zone the server does not know is UTC', async () => {
    const ada = await createUser(db)
    const browser = await signedInBrowser(db, ada.id)
    const insightsWith = async (tz: string) => {
      const request = rpcRequest('task/getProductivityInsights', undefined, {
        method: 'GET',
        headers: { Cookie: `${browser.cookie}; tz=${encodeURIComponent(tz)}` },
      })
      const response = await answerThroughRpcRoute(request)
      expect(response.status).toBe(200)
      return (await readRpcJson(response)) as { timeZone: string }
    }

    expect((await insightsWith('Asia/Tokyo')).timeZone).toBe('Asia/Tokyo')
    expect((await insightsWith('Mars/Olympus_Mons')).timeZone).toBe('UTC')
    expect((await insightsWith('%E0%A4%A')).timeZone).toBe('UTC')
  })
})
