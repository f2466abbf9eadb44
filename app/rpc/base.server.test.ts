import { ORPCError } from '@orpc/server'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { authed, base, mutation, toORPCError } from '~/rpc/base.server'
import { createRpcHandler } from '~/rpc/handler.server'
import { Conflict, Forbidden, Invalid, NotFound, RateLimited, Unauthorized } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { z } from '~/utils/zod'
import { readRpcJson, rpcRequest } from '../../tests/helpers/rpc'

describe('toORPCError', () => {
  test.each([
    [new NotFound('Task not found'), 'NOT_FOUND', 404, 'Task not found'],
    [new Forbidden('Unauthorized to view this task'), 'FORBIDDEN', 403, 'Unauthorized to view this task'],
    [new Unauthorized(), 'UNAUTHORIZED', 401, 'You need to sign in to do that.'],
    [new Conflict('That e-mail is taken'), 'CONFLICT', 409, 'That e-mail is taken'],
  ])('maps %s to %s (%i) with its message', (error, code, status, message) => {
    const mapped = toORPCError(error)
    expect(mapped).toBeInstanceOf(ORPCError)
    expect(mapped).toMatchObject({ code, status, message })
  })

  test('Invalid becomes BAD_REQUEST carrying the issues', () => {
    const issues = [{ path: ['emails', 1], message: 'Invalid e-mail' }]
    expect(toORPCError(new Invalid('Check the e-mails', issues))).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
      message: 'Check the e-mails',
      data: { issues },
    })
  })

  test('RateLimited becomes TOO_MANY_REQUESTS telling when to retry', () => {
    expect(toORPCError(new RateLimited('Slow down', 42))).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      status: 429,
      message: 'Slow down',
      data: { retryAfter: 42 },
    })
  })

  test('errors that are not the domain’s pass through untouched', () => {
    const bug = new TypeError('undefined is not a function')
    expect(toORPCError(bug)).toBe(bug)
    const already = new ORPCError('NOT_FOUND')
    expect(toORPCError(already)).toBe(already)
  })
})

/** A tiny router beside the app's, to see the mapping and middleware as a client sees them. */
const testRouter = {
  whoAmI: base.use(authed).handler(({ context }) => ({ id: context.user.id })),
  missing: base.handler(() => {
    throw new NotFound('Task not found')
  }),
  limited: base.handler(() => {
    throw new RateLimited('Too many comments', 30)
  }),
  rename: base.use(mutation).handler(() => 'renamed'),
  add: base.input(z.object({ a: z.number(), b: z.number() })).handler(({ input }) => input.a + input.b),
}

const testHandler = createRpcHandler(testRouter)

const ada: SessionUser = { id: 'u1', name: 'Ada', email: 'ada@example.com', image: null, emailVerified: true }

async function call(procedure: string, input?: unknown, user: SessionUser | null = null, isCsrfValid = true) {
  const request = rpcRequest(procedure, input)
  const { response } = await testHandler.handle(request, {
    prefix: '/api/rpc',
    context: { db: database(), user, isCsrfValid, headers: request.headers },
  })
  if (!response) throw new Error(`No procedure ${procedure}`)
  return { status: response.status, body: await readRpcJson(response) }
}

describe('procedures behind `authed`', () => {
  test('answer an anonymous caller 401 UNAUTHORIZED, not a redirect', async () => {
    const { status, body } = await call('whoAmI')
    expect(status).toBe(401)
    expect(body).toMatchObject({ code: 'UNAUTHORIZED', message: 'You need to sign in to do that.' })
  })

  test('run for a signed-in caller, who is then known to the handler', async () => {
    expect(await call('whoAmI', undefined, ada)).toEqual({ status: 200, body: { id: 'u1' } })
  })
})

describe('procedures behind `mutation`', () => {
  test('refuse a call without a valid CSRF token: 403 Invalid CSRF token', async () => {
    const { status, body } = await call('rename', undefined, ada, false)
    expect(status).toBe(403)
    expect(body).toMatchObject({ code: 'FORBIDDEN', message: 'Invalid CSRF token' })
  })

  test('run when the token was valid', async () => {
    expect(await call('rename', undefined, ada, true)).toEqual({ status: 200, body: 'renamed' })
  })
})

describe('domain errors over the wire', () => {
  test('NotFound answers 404 with its message', async () => {
    const { status, body } = await call('missing')
    expect(status).toBe(404)
    expect(body).toMatchObject({ code: 'NOT_FOUND', message: 'Task not found' })
  })

  test('RateLimited answers 429 with retryAfter', async () => {
    const { status, body } = await call('limited')
    expect(status).toBe(429)
    expect(body).toMatchObject({ code: 'TOO_MANY_REQUESTS', data: { retryAfter: 30 } })
  })

  test('bad input answers 400 BAD_REQUEST with the zod issues and their paths', async () => {
    const { status, body } = await call('add', { a: 1, b: 'two' })
    expect(status).toBe(400)
    expect(body).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Invalid input',
      data: { issues: [{ path: ['b'], message: expect.any(String) }] },
    })
    expect(await call('add', { a: 1, b: 2 })).toEqual({ status: 200, body: 3 })
  })
})
