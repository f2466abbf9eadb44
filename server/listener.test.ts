import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sendRaw, statusOf } from '../tests/helpers/raw-http'
import { createListener, hardenServer, type ListenerOptions } from './listener'

/**
 * The adapter between node:http and the app, driven over raw sockets: the requests a Fetch
 * `Request` cannot represent, bodies too large or never finished, clients too slow, and handlers
 * that fail. After each odd request the same server must still answer a normal one.
 */

type Seen = { url: string; method: string; bodyLength: number }

let server: Server | undefined
let port = 0
let seen: Seen[] = []

/**
 * Timeouts no normal request meets even on a starved test machine; the slow-client tests pass
 * `CUT_OFF` instead, short enough to watch them work, long enough that the normal request each
 * sends afterwards (`stillServes`) never meets them.
 */
const PATIENT = { headersMs: 10_000, requestMs: 20_000 }
const CUT_OFF = { headersMs: 1_000, requestMs: 1_500 }

async function start(options: Partial<ListenerOptions> = {}, timeouts = PATIENT) {
  seen = []
  const errors: unknown[] = []
  const listener = createListener({
    publicOrigin: new URL('https://app.example'),
    trustProxy: false,
    bodyLimit: () => 1024,
    async handle(request) {
      const body = await request.arrayBuffer()
      seen.push({ url: request.url, method: request.method, bodyLength: body.byteLength })
      return new Response(`${request.method} ${request.url}`, { headers: { 'X-Test': 'yes' } })
    },
    log: (_message, error) => errors.push(error),
    ...options,
  })
  server = createServer({ connectionsCheckingInterval: 100 }, listener)
  hardenServer(server, { ...timeouts, keepAliveMs: 5_000 })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
  return { errors }
}

afterEach(async () => {
  if (!server) return
  server.closeAllConnections()
  server.close()
  await once(server, 'close')
  server = undefined
})

function raw(parts: string | string[], options?: { pauseMs?: number; waitMs?: number }) {
  return sendRaw(port, parts, options)
}

async function stillServes() {
  const response = await fetch(`http://127.0.0.1:${port}/ping`)
  expect(response.status).toBe(200)
}

const closeAfter = 'Connection: close\r\n\r\n'

describe('requests a Fetch Request cannot represent', () => {
  it.each([
    ['TRACE', 405],
    ['PROPFIND', 405],
  ])('answers %s with %i and an Allow header', async (method, status) => {
    await start()
    const response = await raw(`${method} / HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
    expect(statusOf(response)).toBe(status)
    expect(response).toMatch(/\r\nAllow: GET, HEAD, POST/i)
    await stillServes()
  })

  it("leaves methods Node's parser does not know (TRACK) to its own 400", async () => {
    await start()
    expect(statusOf(await raw(`TRACK / HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`))).toBe(400)
    await stillServes()
  })

  it('refuses CONNECT with 405', async () => {
    await start()
    const response = await raw(`CONNECT app.example:443 HTTP/1.1\r\nHost: app.example:443\r\n\r\n`)
    expect(statusOf(response)).toBe(405)
    await stillServes()
  })

  it.each(['[', 'a b', 'localhost:99999', 'a@b', 'a/b', 'exa mple.com:80', ':::', 'host:port'])(
    'answers a bad Host header (%j) with 400',
    async (host) => {
      await start()
      const response = await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\n${closeAfter}`)
      expect(statusOf(response)).toBe(400)
      expect(seen).toEqual([])
      await stillServes()
    },
  )

  it.each(['http://[bad/', 'http://a b/', 'https://:99999/', '*', 'ftp://app.example/', 'x'])(
    'answers a bad request target (%j) with 400',
    async (target) => {
      await start()
      const response = await raw(`GET ${target} HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
      expect(statusOf(response)).toBe(400)
      await stillServes()
    },
  )

  it('takes only the path of an absolute-form target, and keeps `//x` a path on this host', async () => {
    await start()
    await raw(`GET http://elsewhere.example/a?b=1 HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
    await raw(`GET //elsewhere.example/c HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
    expect(seen.map(({ url }) => url)).toEqual([
      'https://app.example/a?b=1',
      'https://app.example//elsewhere.example/c',
    ])
  })
})

describe('the public origin', () => {
  it('gives a request for the public host the public protocol, though the proxy speaks http', async () => {
    await start()
    await raw(`GET /x HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
    await raw(`GET /y HTTP/1.1\r\nHost: 127.0.0.1:3000\r\n${closeAfter}`)
    await raw(`GET /z HTTP/1.0\r\n\r\n`)
    expect(seen.map(({ url }) => url)).toEqual([
      'https://app.example/x',
      'http://127.0.0.1:3000/y',
      'https://app.example/z',
    ])
  })

  it('believes X-Forwarded-Proto and X-Forwarded-Host only behind a trusted proxy', async () => {
    const forwarded = 'X-Forwarded-Proto: https, http\r\nX-Forwarded-Host: public.example\r\n'
    await start({ trustProxy: false })
    await raw(`GET /a HTTP/1.1\r\nHost: internal:8080\r\n${forwarded}${closeAfter}`)
    expect(seen.at(-1)?.url).toBe('http://internal:8080/a')
    await server?.close()
    server?.closeAllConnections()
    await start({ trustProxy: true })
    await raw(`GET /a HTTP/1.1\r\nHost: internal:8080\r\n${forwarded}${closeAfter}`)
    expect(seen.at(-1)?.url).toBe('https://public.example/a')
  })
})

describe('request bodies', () => {
  it('refuses a body over the limit by its Content-Length, before reading it', async () => {
    await start()
    const response = await raw(
      `POST /form HTTP/1.1\r\nHost: app.example\r\nContent-Length: 67108864\r\n\r\nabc`,
    )
    expect(statusOf(response)).toBe(413)
    expect(seen).toEqual([])
    await stillServes()
  })

  it('answers a JSON endpoint in JSON, with a code', async () => {
    await start()
    const response = await fetch(`http://127.0.0.1:${port}/api/rpc/x`, {
      method: 'POST',
      body: 'a'.repeat(2048),
    })
    expect(response.status).toBe(413)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Payload Too Large: at most 1024 bytes',
    })
  })

  it('refuses a chunked body once it passes the limit, though it never ends', async () => {
    await start()
    const chunk = `400\r\n${'x'.repeat(1024)}\r\n`
    const response = await raw(
      [`POST /form HTTP/1.1\r\nHost: app.example\r\nTransfer-Encoding: chunked\r\n\r\n`, chunk, chunk, chunk],
      { pauseMs: 20 },
    )
    expect(statusOf(response)).toBe(413)
    expect(seen).toEqual([])
    await stillServes()
  })

  it('passes a body within the limit to the app whole', async () => {
    await start()
    const response = await fetch(`http://127.0.0.1:${port}/form`, { method: 'POST', body: 'a'.repeat(1024) })
    expect(response.status).toBe(200)
    expect(seen).toEqual([{ url: `http://127.0.0.1:${port}/form`, method: 'POST', bodyLength: 1024 }])
  })

  it('cuts off a body that never finishes with 408', async () => {
    await start({}, CUT_OFF)
    const started = Date.now()
    const response = await raw(`POST /form HTTP/1.1\r\nHost: app.example\r\nContent-Length: 100\r\n\r\nabc`, {
      waitMs: 4_000,
    })
    expect(statusOf(response)).toBe(408)
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(seen).toEqual([])
    await stillServes()
  })

  it('cuts off headers sent a byte at a time (slowloris) with 408', async () => {
    await start({}, CUT_OFF)
    const started = Date.now()
    const drip = 'GET / HTTP/1.1\r\nHost: app.example\r\nX-Slow: '.split('')
    const response = await raw([...drip, ...'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.split('')], {
      pauseMs: 50,
      waitMs: 4_000,
    })
    expect(statusOf(response)).toBe(408)
    expect(Date.now() - started).toBeLessThan(3_500)
    await stillServes()
  })

  it('survives a client that leaves mid-body', async () => {
    await start()
    await raw(`POST /form HTTP/1.1\r\nHost: app.example\r\nContent-Length: 500\r\n\r\nabc`, { waitMs: 50 })
    await stillServes()
  })
})

describe('failures in the app', () => {
  it('answers 500 when the handler throws, and keeps serving', async () => {
    const { errors } = await start({
      handle: async (request) => {
        if (new URL(request.url).pathname === '/boom') throw new Error('boom')
        return new Response('ok')
      },
    })
    const response = await fetch(`http://127.0.0.1:${port}/boom`)
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain('boom')
    expect(errors).toHaveLength(1)
    await stillServes()
  })

  it('ends the response when its body fails mid-stream, and keeps serving', async () => {
    await start({
      handle: async (request) => {
        if (new URL(request.url).pathname !== '/broken') return new Response('ok')
        const body = new ReadableStream({
          pull(controller) {
            controller.enqueue(new TextEncoder().encode('partial'))
            controller.error(new Error('stream broke'))
          },
        })
        return new Response(body)
      },
    })
    await expect(fetch(`http://127.0.0.1:${port}/broken`).then((r) => r.text())).rejects.toThrow()
    await stillServes()
  })

  it('sends HEAD answers without a body', async () => {
    await start()
    const response = await raw(`HEAD /x HTTP/1.1\r\nHost: app.example\r\n${closeAfter}`)
    expect(statusOf(response)).toBe(200)
    expect(response).toMatch(/\r\n\r\n$/)
  })
})

describe('headers', () => {
  it("adds the app's cookies to those a step before it set, and keeps every one", async () => {
    const listener = createListener({
      publicOrigin: new URL('https://app.example'),
      trustProxy: false,
      bodyLimit: () => 1024,
      handle: async () => {
        const headers = new Headers({ 'X-Frame-Options': 'SAMEORIGIN' })
        headers.append('Set-Cookie', 'toast=1; Path=/')
        headers.append('Set-Cookie', 'theme=dark; Path=/')
        return new Response('ok', { headers })
      },
    })
    // As server/app.ts runs it: security headers and a door's renewed session cookie come first.
    server = createServer((req, res) => {
      res.setHeader('X-Frame-Options', 'DENY')
      res.setHeader('X-Content-Type-Options', 'nosniff')
      res.appendHeader('Set-Cookie', 'tw_session=renewed; Path=/')
      listener(req, res)
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as AddressInfo).port
    const response = await fetch(`http://127.0.0.1:${port}/`)
    expect(response.headers.getSetCookie()).toEqual([
      'tw_session=renewed; Path=/',
      'toast=1; Path=/',
      'theme=dark; Path=/',
    ])
    expect(response.headers.get('X-Frame-Options')).toBe('SAMEORIGIN')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
  })
})
