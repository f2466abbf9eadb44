import { RouterContextProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { loader as csrfLoader } from '~/routes/api/csrf'
import type { CommentView } from '~/services/comment-views.server'
import type { TaskView } from '~/services/tasks/view'
import { signedInBrowser, type TestBrowser } from '../../tests/helpers/auth'
import { createTask, createUser } from '../../tests/helpers/factories'
import { serveFetch, type TestServer } from '../../tests/helpers/http-server'
import { answerThroughRpcRoute } from '../../tests/helpers/rpc'
import { fetchRpc, type ProcedurePath, postRpc, type RpcInput, type RpcOutput } from './rpc-client'

/**
 * The page's RPC calls over real HTTP against the /api/rpc route module (and /api/csrf), with
 * `location` and the browser's cookie jar stood in for: `fetch` adds the session cookie of
 * whoever is signed in, as a browser does for a same-origin request.
 */

const db = database()
const realFetch = globalThis.fetch
let server: TestServer
/** What the server received, and what the page handed to fetch (its cache mode, credentials). */
let seen: Request[] = []
let sent: Request[] = []
let signedIn: TestBrowser | null = null

beforeAll(async () => {
  server = await serveFetch((request) => {
    seen.push(request.clone())
    const url = new URL(request.url)
    if (url.pathname === '/api/csrf') {
      return csrfLoader({
        request,
        url,
        params: {},
        context: new RouterContextProvider(),
        pattern: '/api/csrf',
      })
    }
    return answerThroughRpcRoute(request)
  })
})
afterAll(() => server.close())

function browse(as: TestBrowser | null) {
  signedIn = as
  seen = []
  sent = []
  vi.stubGlobal('location', new URL(server.origin))
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    sent.push(request)
    if (signedIn) request.headers.set('Cookie', signedIn.cookie)
    return realFetch(request)
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

async function signIn() {
  const user = await createUser(db)
  return { user, browser: await signedInBrowser(db, user.id) }
}

describe('fetchRpc', () => {
  test('calls a read by GET with its input in ?data= as {json}, and decodes the output', async () => {
    browse(null)
    const task = await createTask(db, { isPublic: true, text: 'Read me by GET' })
    const output = await fetchRpc('task/get', { taskId: task.id })
    expect(output).toMatchObject({ id: task.id, text: 'Read me by GET' })
    const [request] = seen
    expect(request?.method).toBe('GET')
    const url = new URL(request?.url ?? '')
    expect(url.pathname).toBe('/api/rpc/task/get')
    expect(JSON.parse(url.searchParams.get('data') ?? '')).toEqual({ json: { taskId: task.id } })
  })

  test('asks the browser to revalidate what it holds (If-None-Match, 304) and sends same-origin cookies', async () => {
    browse(null)
    await fetchRpc('healthCheck')
    expect(sent[0]?.cache).toBe('no-cache')
    expect(sent[0]?.credentials).toBe('same-origin')
  })

  test('takes a dotted procedure name too, and a call without input', async () => {
    browse(null)
    const health = await fetchRpc('healthCheck')
    expect(health.status).toBe('ok')
    const { user, browser } = await signIn()
    browse(browser)
    await createTask(db, { userId: user.id, text: 'Mine' })
    const tasks = await fetchRpc('task.getAll')
    expect(tasks.filter((task) => task.userId === user.id).map((task) => task.text)).toEqual(['Mine'])
    expect(new URL(seen.at(-1)?.url ?? '').pathname).toBe('/api/rpc/task/getAll')
  })

  test('an error answer rejects with its oRPC code and status', async () => {
    browse(null)
    await expect(fetchRpc('task/getAll')).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    await expect(fetchRpc('task/get', { taskId: 'no-such-task' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Task not found',
    })
    // @ts-expect-error -- not a procedure of the router: the endpoint answers 404, and so does the type
    await expect(fetchRpc('noSuchProcedure')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 })
  })

  test('an input too long for a URL goes by POST, as RPCLink sends it', async () => {
    browse(null)
    const taskId = 'x'.repeat(2100)
    await expect(fetchRpc('task/get', { taskId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(seen[0]?.method).toBe('POST')
    expect(new URL(seen[0]?.url ?? '').search).toBe('')
    expect(await seen[0]?.json()).toEqual({ json: { taskId } })
  })

  test('dates travel as {json, meta} both ways, as oRPC serializes them', async () => {
    vi.stubGlobal('location', new URL('http://localhost'))
    let asked: URL | undefined
    vi.stubGlobal('fetch', async (url: URL) => {
      asked = url
      return Response.json({ json: { at: '2026-01-02T03:04:05.000Z', n: 1 }, meta: [[1, 'at']] })
    })
    // The stubbed server above answers any procedure; the router has none that takes a date.
    const output = (await fetchRpc(
      // @ts-expect-error -- not a procedure of the router
      'echo',
      { since: new Date('2026-01-01T00:00:00Z') },
    )) as unknown as { at: Date; n: number }
    expect(output.at).toEqual(new Date('2026-01-02T03:04:05.000Z'))
    expect(output.n).toBe(1)
    expect(JSON.parse(asked?.searchParams.get('data') ?? '')).toEqual({
      json: { since: '2026-01-01T00:00:00.000Z' },
      meta: [[1, 'since']],
    })
  })

  test('an answer that is not oRPC JSON fails with its status', async () => {
    vi.stubGlobal('location', new URL('http://localhost'))
    vi.stubGlobal('fetch', async () => new Response('<h1>Bad gateway</h1>', { status: 502 }))
    await expect(fetchRpc('healthCheck')).rejects.toMatchObject({ code: 'BAD_GATEWAY', status: 502 })
    vi.stubGlobal('fetch', async () => new Response('<h1>OK?</h1>', { status: 200 }))
    await expect(fetchRpc('healthCheck')).rejects.toThrow('Invalid RPC response format.')
  })
})

describe('postRpc', () => {
  test('sends the CSRF token as x-csrf-token, by POST', async () => {
    const { browser } = await signIn()
    browse(browser)
    const task = await postRpc('task/create', { text: 'Posted from the page' }, { csrfToken: browser.csrf })
    expect(task.text).toBe('Posted from the page')
    expect(seen).toHaveLength(1)
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.headers.get('x-csrf-token')).toBe(browser.csrf)
  })

  test('a token that no longer holds is replaced from /api/csrf, once', async () => {
    const { browser } = await signIn()
    browse(browser)
    const task = await postRpc('task/create', { text: 'After an hour away' }, { csrfToken: 'expired.token' })
    expect(task.text).toBe('After an hour away')
    expect(seen.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/rpc/task/create',
      'GET /api/csrf',
      'POST /api/rpc/task/create',
    ])
  })

  test('other errors are not retried', async () => {
    const { browser } = await signIn()
    browse(browser)
    await expect(postRpc('task/create', { text: '' }, { csrfToken: browser.csrf })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    expect(seen).toHaveLength(1)
  })
})

describe('types from the router', () => {
  test('a procedure’s path, input and output are the router’s own, by either spelling', () => {
    expectTypeOf<RpcInput<'comments/getComments'>>().toEqualTypeOf<{ taskId: string }>()
    expectTypeOf<RpcOutput<'comments/getComments'>>().toEqualTypeOf<CommentView[]>()
    expectTypeOf<RpcOutput<'task.get'>>().toEqualTypeOf<TaskView>()
    expectTypeOf<RpcOutput<'comments/markNotificationAsRead'>>().toEqualTypeOf<{ success: boolean }>()
    expectTypeOf<'task/noSuchProcedure'>().not.toExtend<ProcedurePath>()
  })

  test('a call with another procedure’s input does not compile', () => {
    // @ts-expect-error -- getComments takes a taskId
    const call = () => fetchRpc('comments/getComments', { commentId: 'c1' })
    // @ts-expect-error -- a mutation's input is required
    const post = () => postRpc('task/create', undefined, { csrfToken: '' })
    expect([call, post]).toHaveLength(2)
  })
})
