import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { Conflict, Forbidden, Invalid, NotFound, RateLimited, Unauthorized } from '~/services/errors'
import { z } from '~/utils/zod'
import { keepRetryAfter, refusalFor, replyWithError } from './refusals.server'

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
