import { describe, expect, test } from 'vitest'
import { RPC_CACHE_CONTROL, withHttpCaching } from './http-cache.server'

const URL_OF_A_READ = 'http://localhost/api/rpc/task/getAll'
const BODY = JSON.stringify({ json: [{ id: 't1', text: 'Write the spec' }] })

function jsonAnswer(status = 200, body = BODY, headers: HeadersInit = {}) {
  return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } })
}

function get(headers: HeadersInit = {}) {
  return new Request(URL_OF_A_READ, { headers })
}

describe('withHttpCaching', () => {
  test('a successful GET gets a strong ETag, private no-cache, its length, and its body unchanged', async () => {
    const response = await withHttpCaching(get(), jsonAnswer())
    expect(response.status).toBe(200)
    expect(response.headers.get('ETag')).toMatch(/^"[\w-]{27}"$/)
    expect(response.headers.get('Cache-Control')).toBe(RPC_CACHE_CONTROL)
    expect(response.headers.get('Content-Length')).toBe(String(new TextEncoder().encode(BODY).byteLength))
    expect(response.headers.get('Content-Type')).toBe('application/json')
    expect(await response.text()).toBe(BODY)
  })

  test('the ETag follows the body: the same body the same tag, another body another', async () => {
    const first = await withHttpCaching(get(), jsonAnswer())
    const again = await withHttpCaching(get(), jsonAnswer())
    const changed = await withHttpCaching(get(), jsonAnswer(200, JSON.stringify({ json: [] })))
    expect(again.headers.get('ETag')).toBe(first.headers.get('ETag'))
    expect(changed.headers.get('ETag')).not.toBe(first.headers.get('ETag'))
  })

  test.each([
    ['its own tag', (etag: string) => etag],
    ['its tag made weak (as a proxy that gzips sends it)', (etag: string) => `W/${etag}`],
    ['a list holding its tag', (etag: string) => `"older", ${etag}`],
    ['*', () => '*'],
  ])('If-None-Match with %s answers a bodiless 304 with the same validators', async (_, ifNoneMatch) => {
    const etag = (await withHttpCaching(get(), jsonAnswer())).headers.get('ETag') ?? ''
    const response = await withHttpCaching(
      get({ 'If-None-Match': ifNoneMatch(etag) }),
      jsonAnswer(200, BODY, { Vary: 'Accept-Encoding' }),
    )
    expect(response.status).toBe(304)
    expect(response.body).toBeNull()
    expect(response.headers.get('ETag')).toBe(etag)
    expect(response.headers.get('Cache-Control')).toBe(RPC_CACHE_CONTROL)
    expect(response.headers.get('Vary')).toBe('Accept-Encoding')
  })

  test('a stale If-None-Match gets the whole new body', async () => {
    const response = await withHttpCaching(get({ 'If-None-Match': '"an-older-answer"' }), jsonAnswer())
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(BODY)
  })

  test('a POST is never answered 304 nor tagged; it only gains its length', async () => {
    const etag = (await withHttpCaching(get(), jsonAnswer())).headers.get('ETag') ?? ''
    const post = new Request(URL_OF_A_READ, {
      method: 'POST',
      headers: { 'If-None-Match': etag },
      body: '{}',
    })
    const response = await withHttpCaching(post, jsonAnswer())
    expect(response.status).toBe(200)
    expect(response.headers.get('ETag')).toBeNull()
    expect(response.headers.get('Cache-Control')).toBeNull()
    expect(response.headers.get('Content-Length')).toBe(String(BODY.length))
    expect(await response.text()).toBe(BODY)
  })

  test('an error answer to a GET keeps its status and body, untagged', async () => {
    const error = JSON.stringify({ json: { code: 'UNAUTHORIZED', status: 401 } })
    const response = await withHttpCaching(get({ 'If-None-Match': '*' }), jsonAnswer(401, error))
    expect(response.status).toBe(401)
    expect(response.headers.get('ETag')).toBeNull()
    expect(response.headers.get('Content-Length')).toBe(String(error.length))
    expect(await response.text()).toBe(error)
  })

  test('an event stream passes through untouched, never buffered', async () => {
    const stream = new ReadableStream({ start() {} }) // never ends: buffering it would hang
    const original = new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } })
    expect(await withHttpCaching(get(), original)).toBe(original)
  })
})
