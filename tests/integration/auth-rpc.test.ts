import { describe, expect, test, vi } from 'vitest'
import { CSRF_HEADER } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { anonymousBrowser, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { TEST_ORIGIN } from '../helpers/route'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../helpers/rpc'

/**
 * The /api/rpc route decides `isCsrfValid` itself (the root middleware leaves /api/rpc alone, so
 * reads stay POST-able and GET-able without a token). The route's router gets two test procedures
 * beside the real ones, so the check is seen apart from what any real write does; the route
 * module, the handler and the `mutation` middleware are the app's own.
 */

vi.mock('~/rpc/router.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('~/rpc/router.server')>()
  const { authed, base, mutation } = await import('~/rpc/base.server')
  return {
    router: {
      ...original.router,
      testRename: base.use(mutation).handler(({ context }) => ({ renamedBy: context.user?.id ?? null })),
      testWhoAmI: base.use(authed).handler(({ context }) => ({ id: context.user.id })),
    },
  }
})

async function call(procedure: string, headers: HeadersInit = {}, method: 'GET' | 'POST' = 'POST') {
  const response = await answerThroughRpcRoute(rpcRequest(procedure, undefined, { headers, method }))
  return { status: response.status, body: await readRpcJson(response).catch(() => null) }
}

describe('mutations through /api/rpc', () => {
  test('without x-csrf-token: 403 Invalid CSRF token', async () => {
    const browser = anonymousBrowser()
    const { status, body } = await call('testRename', { Cookie: browser.cookie })
    expect(status).toBe(403)
    expect(body).toMatchObject({ code: 'FORBIDDEN', message: 'Invalid CSRF token' })
  })

  test('a token sent anywhere but the x-csrf-token header does not count', async () => {
    const browser = anonymousBrowser()
    const { status } = await call('testRename', { Cookie: browser.cookie, 'X-Other': browser.csrf })
    expect(status).toBe(403)
  })

  test('with a valid x-csrf-token bound to the anonymous cookie: runs', async () => {
    const browser = anonymousBrowser()
    expect(await call('testRename', browser.headers())).toEqual({ status: 200, body: { renamedBy: null } })
  })

  test('signed in, with a token bound to the session: runs as that user', async () => {
    const db = database()
    const user = await createUser(db)
    const browser = await signedInBrowser(db, user.id)
    expect(await call('testRename', browser.headers())).toEqual({ status: 200, body: { renamedBy: user.id } })
  })

  test("another browser's token, a token without its cookie, or a foreign Origin: 403", async () => {
    const mine = anonymousBrowser()
    const theirs = anonymousBrowser()
    expect((await call('testRename', { Cookie: mine.cookie, [CSRF_HEADER]: theirs.csrf })).status).toBe(403)
    expect((await call('testRename', { [CSRF_HEADER]: mine.csrf })).status).toBe(403)
    expect(
      (await call('testRename', mine.headers({ extra: { Origin: 'https://evil.example' } }))).status,
    ).toBe(403)
    expect((await call('testRename', mine.headers({ extra: { Origin: TEST_ORIGIN } }))).status).toBe(200)
  })
})

describe('reads and protected procedures', () => {
  test('a read needs no token, by POST or GET', async () => {
    expect((await call('healthCheck')).status).toBe(200)
    expect((await call('healthCheck', {}, 'GET')).status).toBe(200)
  })

  test('an anonymous call to a protected procedure is 401 UNAUTHORIZED, never a redirect', async () => {
    const { status, body } = await call('testWhoAmI', anonymousBrowser().headers())
    expect(status).toBe(401)
    expect(body).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  test('the session cookie makes the caller known', async () => {
    const db = database()
    const user = await createUser(db)
    const browser = await signedInBrowser(db, user.id)
    expect(await call('testWhoAmI', { Cookie: browser.cookie })).toEqual({
      status: 200,
      body: { id: user.id },
    })
  })

  test('an unknown procedure answers 404', async () => {
    const response = await answerThroughRpcRoute(rpcRequest('noSuchProcedure'))
    expect(response.status).toBe(404)
  })
})
