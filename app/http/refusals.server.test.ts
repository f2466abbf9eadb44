import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { Conflict, Forbidden, Invalid, NotFound, RateLimited, Unauthorized } from '~/services/errors'
import { z } from '~/utils/zod'
import { handleIntent, keepRetryAfter, refusalFor, replyWithError } from './refusals.server'

/**
 * The one translation of domain errors into HTTP for route modules: the status each error
 * carries, Retry-After for a rate limit, and the shapes built on it. The routes' own tests show
 * the same through real requests.
 */

describe('refusalFor', () => {
  test.each([
    [new Invalid('Check it'), 400],
    [new Unauthorized(), 401],
    [new Forbidden('Not yours'), 403],
    [new NotFound('Gone'), 404],
    [new Conflict('Taken'), 409],
  ])('%s answers %i with its message and no Retry-After', (error, status) => {
    expect(refusalFor(error)).toEqual({ reason: error, init: { status, headers: {} } })
  })

  test('a rate limit answers 429 and says when to retry', () => {
    const error = new RateLimited('Slow down', 90)
    expect(refusalFor(error).init).toEqual({ status: 429, headers: { 'Retry-After': '90' } })
  })

  test('anything else is a bug and rethrows', () => {
    const bug = new TypeError('x is undefined')
    expect(() => refusalFor(bug)).toThrow(bug)
  })
})

describe('replyWithError', () => {
  const submission = parseWithZod(new URLSearchParams({ email: 'a@b.test', password: 'secret' }), {
    schema: z.object({ email: z.string(), password: z.string() }),
  })

  test('the message above the form, the status and headers, hidden fields not sent back', () => {
    const reply = replyWithError(submission, new RateLimited('Too many tries.', 60), {
      hideFields: ['password'],
      body: { intent: 'sign-in' },
      headers: { 'Cache-Control': 'no-store' },
    })
    expect(reply.init).toEqual({ status: 429, headers: { 'Cache-Control': 'no-store', 'Retry-After': '60' } })
    expect(reply.data.intent).toBe('sign-in')
    expect(reply.data.result.error).toEqual({ '': ['Too many tries.'] })
    expect(reply.data.result.initialValue).toEqual({ email: 'a@b.test' })
  })

  test('a page may word the message itself', () => {
    const reply = replyWithError(submission, new Conflict('Taken.'), {
      message: (error) => `${error.message}!`,
    })
    expect(reply.data.result.error).toEqual({ '': ['Taken.!'] })
    expect(reply.init?.status).toBe(409)
  })
})

describe('keepRetryAfter', () => {
  test("passes a refusal's Retry-After on to the page, with the page's own Cache-Control", () => {
    const headers = keepRetryAfter({
      actionHeaders: new Headers({ 'Retry-After': '30' }),
      loaderHeaders: new Headers({ 'Cache-Control': 'private, no-store' }),
      parentHeaders: new Headers(),
    })
    expect(Object.fromEntries(headers)).toEqual({ 'cache-control': 'private, no-store', 'retry-after': '30' })
  })
})

describe('handleIntent', () => {
  const Intent = z.discriminatedUnion('intent', [
    z.object({ intent: z.literal('rename'), name: z.string({ error: 'Give a name' }).min(2, 'Too short') }),
    z.object({ intent: z.literal('archive') }),
  ])
  const form = (fields: Record<string, string>) => {
    const formData = new FormData()
    for (const [name, value] of Object.entries(fields)) formData.set(name, value)
    return formData
  }
  const refuse = (message: string) => ({ error: message })

  test('a form that parses runs its change, and the change answers', async () => {
    const seen: unknown[] = []
    const answer = await handleIntent(
      form({ intent: 'rename', name: 'Ada' }),
      Intent,
      async (input) => {
        seen.push(input)
        return new Response(null, { status: 204 })
      },
      refuse,
    )
    expect(seen).toEqual([{ intent: 'rename', name: 'Ada' }])
    expect(answer).toBeInstanceOf(Response)
  })

  test('a form that does not parse is a 400 with its first problem, and nothing runs', async () => {
    let ran = false
    const change = async () => {
      ran = true
      return new Response()
    }
    const short = await handleIntent(form({ intent: 'rename', name: 'A' }), Intent, change, refuse)
    expect(short).toMatchObject({ data: { error: 'Too short' }, init: { status: 400 } })
    const unknown = await handleIntent(form({ intent: 'explode' }), Intent, change, refuse)
    expect(unknown).toMatchObject({ init: { status: 400 } })
    expect(ran).toBe(false)
  })

  test('a domain error is refused with its status, message and Retry-After', async () => {
    const answer = await handleIntent(
      form({ intent: 'archive' }),
      Intent,
      async () => {
        throw new RateLimited('Wait a minute.', 60)
      },
      refuse,
    )
    expect(answer).toMatchObject({
      data: { error: 'Wait a minute.' },
      init: { status: 429, headers: { 'Retry-After': '60' } },
    })
  })

  test('any other error rethrows', async () => {
    const bug = new Error('bug')
    const answer = handleIntent(
      form({ intent: 'archive' }),
      Intent,
      async () => {
        throw bug
      },
      refuse,
    )
    await expect(answer).rejects.toBe(bug)
  })
})
