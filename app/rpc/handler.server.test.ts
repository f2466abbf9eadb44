import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { base } from '~/rpc/base.server'
import { createRpcHandler, handleRpc } from '~/rpc/handler.server'
import { RPC_CACHE_CONTROL } from '~/rpc/http-cache.server'
import type { Health } from '~/services/health.server'
import { toSessionUser } from '~/services/sessions.server'
import { TaskFieldsSchema } from '~/services/tasks/task-schemas'
import { createTask as createTaskAs } from '~/services/tasks/writes.server'
import { signedInBrowser } from '../../tests/helpers/auth'
import { createTask, createUser } from '../../tests/helpers/factories'
import {
  answerThroughRpcRoute,
  type RpcServer,
  readRpcJson,
  rpcRequest,
  startRpcServer,
} from '../../tests/helpers/rpc'

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

describe('/api/rpc methods', () => {
  function withMethod(method: string, procedure: string, input: unknown, headers: HeadersInit) {
    return new Request(`http://localhost/api/rpc/${procedure}`, {
      method,
      headers: { ...Object.fromEntries(new Headers(headers)), 'Content-Type': 'application/json' },
      body: JSON.stringify({ json: input }),
    })
  }

  test.each(['PUT', 'PATCH', 'DELETE'])(
    '%s runs no procedure, read or mutation: 405 METHOD_NOT_SUPPORTED',
    async (method) => {
      const db = database()
      const user = await createUser(db)
      const browser = await signedInBrowser(db, user.id)
      const task = await createTask(db, { userId: user.id })
      for (const [procedure, input] of [
        ['task/delete', { taskId: task.id }],
        ['task/create', { text: 'Made by PUT' }],
        ['task/getAll', undefined],
      ] as const) {
        const response = await answerThroughRpcRoute(withMethod(method, procedure, input, browser.headers()))
        expect(response.status).toBe(405)
        expect(await readRpcJson(response)).toMatchObject({ code: 'METHOD_NOT_SUPPORTED' })
      }
      expect(await db.select().from(tasks).where(eq(tasks.userId, user.id))).toHaveLength(1)
    },
  )

  test('HEAD is a GET without the body', async () => {
    const task = await createTask(database(), { isPublic: true })
    const get = rpcRequest('task/get', { taskId: task.id }, { method: 'GET' })
    const response = await answerThroughRpcRoute(new Request(get, { method: 'HEAD' }))
    expect(response.status).toBe(200)
  })

  test('a malformed request is a 400 answer, not an error in the log', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const response = await answerThroughRpcRoute(
        new Request('http://localhost/api/rpc/task/get', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"json":{"taskId":"x"},"meta":[[1,"__proto__","polluted"]]}',
        }),
      )
      expect(response.status).toBe(400)
      expect(await readRpcJson(response)).toMatchObject({ code: 'BAD_REQUEST' })
      const badData = await answerThroughRpcRoute(
        new Request('http://localhost/api/rpc/task/get?data=%7Bnope'),
      )
      expect(badData.status).toBe(400)
      expect(errors).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
    }
  })
})

describe('the log', () => {
  test('an unexpected failure is answered 500 and logged with its cause', async () => {
    const broken = new Error('the disk is on fire')
    const handler = createRpcHandler({ boom: base.handler(() => Promise.reject(broken)) })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const { response } = await handler.handle(rpcRequest('boom'), {
        prefix: '/api/rpc',
        context: { db: database(), user: null, isCsrfValid: false, headers: new Headers() },
      })
      expect(response?.status).toBe(500)
      expect(errors).toHaveBeenCalledWith('RPC error', broken)
    } finally {
      errors.mockRestore()
    }
  })
})

describe('/api/rpc conditional GET', () => {
  test('healthCheck by GET carries its ETag, private no-cache and its length', async () => {
    const response = await answerThroughRpcRoute(rpcRequest('healthCheck', undefined, { method: 'GET' }))
    expect(response.status).toBe(200)
    expect(response.headers.get('ETag')).toMatch(/^"[\w-]{27}"$/)
    expect(response.headers.get('Cache-Control')).toBe(RPC_CACHE_CONTROL)
    const body = await response.text()
    expect(response.headers.get('Content-Length')).toBe(String(Buffer.byteLength(body)))
  })

  test('healthCheck asked again with its ETag answers 200 with the new report: its timings always change', async () => {
    const first = await answerThroughRpcRoute(rpcRequest('healthCheck', undefined, { method: 'GET' }))
    const etag = first.headers.get('ETag') ?? ''
    await new Promise((resolve) => setTimeout(resolve, 5))
    const again = await answerThroughRpcRoute(
      rpcRequest('healthCheck', undefined, { method: 'GET', headers: { 'If-None-Match': etag } }),
    )
    expect(again.status).toBe(200)
    expect(again.headers.get('ETag')).not.toBe(etag)
    expect(await readRpcJson(again)).toMatchObject({ status: 'ok' })
  })

  test('an unchanged read asked again with its ETag answers a bodiless 304 with that ETag', async () => {
    const task = await createTask(database(), { isPublic: true, text: 'Published plan' })
    const first = await answerThroughRpcRoute(rpcRequest('task/get', { taskId: task.id }, { method: 'GET' }))
    expect(first.status).toBe(200)
    expect(await readRpcJson(first)).toMatchObject({ id: task.id, text: 'Published plan' })
    const etag = first.headers.get('ETag') ?? ''

    const again = await answerThroughRpcRoute(
      rpcRequest('task/get', { taskId: task.id }, { method: 'GET', headers: { 'If-None-Match': etag } }),
    )
    expect(again.status).toBe(304)
    expect(again.headers.get('ETag')).toBe(etag)
    expect(again.headers.get('Cache-Control')).toBe(RPC_CACHE_CONTROL)
    expect(await again.text()).toBe('')
  })

  test.each(['healthCheck', 'task/get'])(
    '%s by POST is never 304 nor tagged, whatever If-None-Match says',
    async (path) => {
      const task = await createTask(database(), { isPublic: true })
      const input = path === 'task/get' ? { taskId: task.id } : undefined
      const response = await answerThroughRpcRoute(
        rpcRequest(path, input, { headers: { 'If-None-Match': '*' } }),
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('ETag')).toBeNull()
      const body = await response.text()
      expect(response.headers.get('Content-Length')).toBe(String(Buffer.byteLength(body)))
    },
  )

  test('an anonymous GET of a protected read is a plain 401, untagged', async () => {
    const response = await answerThroughRpcRoute(
      rpcRequest('task/getAll', undefined, { method: 'GET', headers: { 'If-None-Match': '*' } }),
    )
    expect(response.status).toBe(401)
    expect(response.headers.get('ETag')).toBeNull()
    expect(await readRpcJson(response)).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  describe('over HTTP, as a polling page revalidates', () => {
    let server: RpcServer
    beforeAll(async () => {
      server = await startRpcServer()
    })
    afterAll(() => server.close())

    test('304 while nothing changes, then 200 with a new ETag once the answer does', async () => {
      const db = database()
      const user = await createUser(db)
      const browser = await signedInBrowser(db, user.id)
      await createTask(db, { userId: user.id, text: 'First' })
      const url = `${server.origin}/api/rpc/task/getAll`
      const poll = (etag?: string) =>
        fetch(url, { headers: { Cookie: browser.cookie, ...(etag ? { 'If-None-Match': etag } : {}) } })
      const textsOf = async (response: Response) =>
        ((await readRpcJson(response)) as { text: string; userId: string }[])
          .filter((task) => task.userId === user.id)
          .map((task) => task.text)

      const first = await poll()
      const etag = first.headers.get('ETag') ?? ''
      expect(first.status).toBe(200)
      expect(await textsOf(first)).toEqual(['First'])

      const unchanged = await poll(etag)
      expect(unchanged.status).toBe(304)
      expect(unchanged.headers.get('ETag')).toBe(etag)

      // Through the service, as every change is made: it appends the event that moves the version.
      await createTaskAs(db, toSessionUser(user), TaskFieldsSchema.parse({ text: 'Second' }))
      const changed = await poll(etag)
      expect(changed.status).toBe(200)
      expect(changed.headers.get('ETag')).not.toBe(etag)
      expect((await textsOf(changed)).sort()).toEqual(['First', 'Second'])
    })
  })
})
