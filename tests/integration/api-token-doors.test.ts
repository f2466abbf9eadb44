import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BAD_TOKEN_MESSAGE } from '~/auth/context.server'
import { database } from '~/db/client.server'
import { rateLimits, tasks } from '~/db/schema'
import { loader as eventsLoader } from '~/routes/api/events'
import { action as taskAction } from '~/routes/tasks/actions'
import { loader as taskListLoader } from '~/routes/tasks/index'
import { READ_TOKEN_MESSAGE } from '~/rpc/base.server'
import { router } from '~/rpc/router.server'
import { API_TOKEN_RATE_LIMIT, createApiToken, revokeApiToken } from '~/services/api-tokens.server'
import { toSessionUser } from '~/services/sessions.server'
import { createEventStreams, type EventStreams } from '~/streams/event-streams.server'
import { callThroughMiddleware, signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createTask, createUser } from '../helpers/factories'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../helpers/rpc'

/**
 * A personal API token at the endpoints programs use (/api/rpc, the event streams) and at every
 * other route, where it must open nothing: a bearer request is its token's person whatever cookies it
 * carries, needs no CSRF token, is refused 401 with `WWW-Authenticate` when the token is bad,
 * 403 for a `read` token on any mutation of the RPC contract, 429 past its rate limit; pages and
 * form actions never take it. /mcp has its own file (tests/integration/mcp.test.ts).
 */

const db = database()
let ada: ReturnType<typeof toSessionUser>
let eve: ReturnType<typeof toSessionUser>
let eveBrowser: TestBrowser
let readToken: string
let writeToken: string

beforeAll(async () => {
  ada = toSessionUser(await createUser(db, { name: 'Ada' }))
  eve = toSessionUser(await createUser(db, { name: 'Eve' }))
  eveBrowser = await signedInBrowser(db, eve.id)
  readToken = (await createApiToken(db, ada, { name: 'Reader', scope: 'read', expiry: 'none' })).token
  writeToken = (await createApiToken(db, ada, { name: 'Writer', scope: 'read-write', expiry: '30' })).token
})

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** Every procedure of the RPC contract by its path, with whether it is a mutation (POST only). */
function procedures(tree: object = router, path: string[] = []): { path: string; isMutation: boolean }[] {
  return Object.entries(tree).flatMap(([name, node]) => {
    const orpc = (node as { '~orpc'?: { route: { method?: string } } })['~orpc']
    if (!orpc) return procedures(node as object, [...path, name])
    return [{ path: [...path, name].join('/'), isMutation: orpc.route.method === 'POST' }]
  })
}

const mutations = procedures().filter((procedure) => procedure.isMutation)

describe('/api/rpc with a bearer token', () => {
  test('the contract has mutations to refuse', () => {
    expect(mutations.map((procedure) => procedure.path)).toEqual(
      expect.arrayContaining(['task/create', 'task/update', 'comments/addComment']),
    )
  })

  test.each(mutations)('a read token calling $path is 403, and nothing changes', async ({ path }) => {
    const before = await db.select().from(tasks)
    const response = await answerThroughRpcRoute(rpcRequest(path, {}, { headers: bearer(readToken) }))
    expect(response.status).toBe(403)
    expect(await readRpcJson(response)).toMatchObject({ code: 'FORBIDDEN', message: READ_TOKEN_MESSAGE })
    expect(await db.select().from(tasks)).toEqual(before)
  })

  test('a read token reads as its person', async () => {
    await createTask(db, { userId: ada.id, text: 'Ada reads this' })
    const response = await answerThroughRpcRoute(
      rpcRequest('task/getAll', undefined, { method: 'GET', headers: bearer(readToken) }),
    )
    expect(response.status).toBe(200)
    const listed = (await readRpcJson(response)) as { text: string }[]
    expect(listed.map((task) => task.text)).toContain('Ada reads this')
  })

  test('a read-write token writes without a CSRF token, as its person, ignoring a cookie beside it', async () => {
    const response = await answerThroughRpcRoute(
      rpcRequest(
        'task/create',
        { text: 'Made by a script' },
        { headers: { ...bearer(writeToken), Cookie: eveBrowser.cookie } },
      ),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Set-Cookie')).toBeNull()
    const [row] = await db.select().from(tasks).where(eq(tasks.text, 'Made by a script'))
    expect(row?.userId).toBe(ada.id)
  })

  test('a bad token beside a good session cookie is 401 with WWW-Authenticate: Bearer', async () => {
    for (const token of ['tw_pat_nonsense', `${writeToken.slice(0, -2)}zz`, '']) {
      const response = await answerThroughRpcRoute(
        rpcRequest('task/getAll', undefined, {
          method: 'GET',
          headers: { ...bearer(token), Cookie: eveBrowser.cookie },
        }),
      )
      expect(response.status).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer /)
      expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: BAD_TOKEN_MESSAGE })
    }
  })

  test('a revoked token is 401 at once', async () => {
    const { token, view } = await createApiToken(db, ada, {
      name: 'Soon gone',
      scope: 'read',
      expiry: 'none',
    })
    const call = () =>
      answerThroughRpcRoute(rpcRequest('task/getAll', undefined, { method: 'GET', headers: bearer(token) }))
    expect((await call()).status).toBe(200)
    await revokeApiToken(db, ada, view.id)
    expect((await call()).status).toBe(401)
  })

  test(`past ${API_TOKEN_RATE_LIMIT.limit} requests a minute: 429 with Retry-After`, async () => {
    const { token, view } = await createApiToken(db, ada, { name: 'Busy', scope: 'read', expiry: 'none' })
    await db.insert(rateLimits).values({
      key: `api-token:${view.id}`,
      count: API_TOKEN_RATE_LIMIT.limit,
      resetAt: new Date(Date.now() + 30_000),
    })
    const response = await answerThroughRpcRoute(
      rpcRequest('task/getAll', undefined, { method: 'GET', headers: bearer(token) }),
    )
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0)
  })
})

describe('the event streams with a bearer token', () => {
  let streams: EventStreams
  let server: Server
  let origin: string

  beforeAll(async () => {
    streams = createEventStreams(db, { sessionCheckMs: 100 })
    server = createServer((req, res) => streams.handle(req, res, () => res.writeHead(404).end()))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(() => {
    streams.close()
    server.closeAllConnections()
    server.close()
  })

  test('ahead of the router: a token opens the task stream; a bad one is 401 even beside a cookie', async () => {
    const controller = new AbortController()
    const opened = await fetch(`${origin}/api/events/tasks`, {
      headers: bearer(readToken),
      signal: controller.signal,
    })
    expect(opened.status).toBe(200)
    expect(opened.headers.get('Content-Type')).toMatch(/text\/event-stream/)
    controller.abort()
    const refused = await fetch(`${origin}/api/events/tasks`, {
      headers: { ...bearer('tw_pat_bad'), Cookie: eveBrowser.cookie },
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('WWW-Authenticate')).toMatch(/^Bearer /)
  })

  test('a stream opened with a token ends once the token is revoked', async () => {
    const { token, view } = await createApiToken(db, ada, { name: 'Streamer', scope: 'read', expiry: 'none' })
    const opened = await fetch(`${origin}/api/events/tasks`, { headers: bearer(token) })
    expect(opened.status).toBe(200)
    await revokeApiToken(db, ada, view.id)
    // The body ends (the check runs every 100 ms here) instead of staying open for good.
    const ended = await Promise.race([
      opened.text().then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 2000)),
    ])
    expect(ended).toBe('ended')
  })

  test('through the route: the same', async () => {
    const call = (headers: Record<string, string>) => {
      const controller = new AbortController()
      const request = new Request('http://localhost/api/events/tasks', { headers, signal: controller.signal })
      const args = {
        request,
        url: new URL(request.url),
        params: {},
        context: new RouterContextProvider(),
        pattern: '',
      }
      return { answer: eventsLoader(args as never), controller }
    }
    const opened = call(bearer(readToken))
    expect((await opened.answer).status).toBe(200)
    opened.controller.abort()
    const refused = await call({ ...bearer('tw_pat_bad'), Cookie: eveBrowser.cookie }).answer
    expect(refused.status).toBe(401)
    expect(refused.headers.get('WWW-Authenticate')).toMatch(/^Bearer /)
  })
})

describe('pages and form actions never take a bearer', () => {
  test('a page with a valid token is signed out (to /login), even beside a good cookie', async () => {
    for (const headers of [bearer(writeToken), { ...bearer(writeToken), Cookie: eveBrowser.cookie }]) {
      const answer = await callThroughMiddleware(taskListLoader, { url: '/task', method: 'GET', headers })
      expect(answer.status).toBe(302)
      expect(answer.location).toMatch(/^\/login/)
      expect(answer.handled).toBe(true)
    }
  })

  test('a form action with a valid token, even with a good cookie and its CSRF token, is 403 before it runs', async () => {
    const own = await createTask(db, { userId: eve.id, text: 'Eve keeps this' })
    for (const headers of [
      bearer(writeToken),
      { ...bearer(writeToken), Cookie: eveBrowser.cookie, 'x-csrf-token': eveBrowser.csrf },
    ]) {
      const answer = await callThroughMiddleware(taskAction, {
        url: '/task/actions',
        headers,
        form: { intent: 'delete', taskId: own.id, csrf: eveBrowser.csrf },
      })
      expect(answer).toMatchObject({ status: 403, handled: false })
    }
    expect(await db.select().from(tasks).where(eq(tasks.id, own.id))).toHaveLength(1)
  })
})
