import { data, redirect } from 'react-router'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { buildRequest, callAction, callLoader, cookieHeaderFrom, TEST_ORIGIN } from '../helpers/route'

/** The helper every route test leans on reads each kind of answer as a client would. */
describe('callLoader / callAction', () => {
  test('a plain value is a 200 with that body, typed', async () => {
    const loader = () => ({ tasks: [{ id: 't1' }] })
    const result = await callLoader(loader)
    expect(result).toMatchObject({
      status: 200,
      thrown: false,
      location: null,
      data: { tasks: [{ id: 't1' }] },
    })
    expectTypeOf(result.data).toEqualTypeOf<{ tasks: { id: string }[] }>()
  })

  test('data() keeps its status and headers, typed by its payload', async () => {
    const loader = async () => data({ ok: true }, { status: 201, headers: { 'X-Test': 'yes' } })
    const result = await callLoader(loader)
    expect(result.status).toBe(201)
    expect(result.headers.get('X-Test')).toBe('yes')
    expect(result.data).toEqual({ ok: true })
    expectTypeOf(result.data).toEqualTypeOf<{ ok: boolean }>()
  })

  test('a JSON Response is parsed; a text one is read as text; an empty one is null', async () => {
    expect((await callLoader(() => Response.json({ a: 1 }, { status: 503 }))).data).toEqual({ a: 1 })
    expect((await callLoader(() => new Response('plain', { status: 418 }))).data).toBe('plain')
    expect((await callLoader(() => new Response(null, { status: 204 }))).data).toBeNull()
  })

  test('a thrown data() or Response is an answer, marked thrown; data() without a status is 500', async () => {
    const notFound = await callLoader(() => {
      throw data({ why: 'gone' }, 404)
    })
    expect(notFound).toMatchObject({ status: 404, thrown: true, data: { why: 'gone' } })

    const bare = await callLoader(() => {
      throw data('oops')
    })
    expect(bare.status).toBe(500)

    const moved = await callLoader(() => {
      throw redirect('/login?redirect=%2Ftask')
    })
    expect(moved).toMatchObject({ status: 302, thrown: true, location: '/login?redirect=%2Ftask' })
  })

  test('a thrown Error is a bug and fails the test', async () => {
    await expect(
      callLoader(() => {
        throw new TypeError('boom')
      }),
    ).rejects.toThrow('boom')
  })

  test('passes the v8 arguments: request, url, params, context, pattern', async () => {
    let seen: Record<string, unknown> = {}
    const loader = (args: {
      request: Request
      url: URL
      params: { id: string }
      context: unknown
      pattern: string
    }) => {
      seen = { ...args }
      return null
    }
    await callLoader(loader, { url: '/tasks/42?tab=comments', params: { id: '42' }, pattern: '/tasks/:id' })
    expect((seen.request as Request).url).toBe(`${TEST_ORIGIN}/tasks/42?tab=comments`)
    expect((seen.url as URL).searchParams.get('tab')).toBe('comments')
    expect(seen.params).toEqual({ id: '42' })
    expect(seen.pattern).toBe('/tasks/:id')
    expect(seen.context).toBeDefined()
  })

  test('posts forms URL-encoded (repeating arrays) and JSON as JSON', async () => {
    const echoForm = async ({ request }: { request: Request }) => {
      const form = await request.formData()
      return { tags: form.getAll('tag'), text: form.get('text'), type: request.headers.get('Content-Type') }
    }
    const form = await callAction(echoForm, { form: { text: 'Hi', tag: ['a', 'b'] } })
    expect(form.data).toEqual({
      tags: ['a', 'b'],
      text: 'Hi',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    })

    const echoJson = async ({ request }: { request: Request }) => ({
      method: request.method,
      body: await request.json(),
    })
    expect((await callAction(echoJson, { json: { a: 1 } })).data).toEqual({ method: 'POST', body: { a: 1 } })
  })

  test('refuses a body on a GET, which fetch would reject anyway', () => {
    expect(() => buildRequest({ form: { a: '1' } })).toThrow(/cannot carry a body/)
  })
})

describe('cookieHeaderFrom', () => {
  test('sends back what was set, and drops cookies being cleared', () => {
    const headers = new Headers()
    headers.append('Set-Cookie', 'theme=dark; Path=/; Max-Age=31536000')
    headers.append('Set-Cookie', 'tw_toast=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT')
    headers.append('Set-Cookie', 'session=abc%3D; Path=/; HttpOnly')
    expect(cookieHeaderFrom(headers)).toBe('theme=dark; session=abc%3D')
  })
})
