import { sendRaw, statusOf } from '../helpers/raw-http'
import { startServer, waitUntilListening } from './app-process'
import { expect, test } from './fixtures'

/**
 * The production server's own duties, seen from outside: headers, compression, caching, the
 * request log, configuration errors and a graceful stop. Each test starts its own `node server.js`
 * (the built app), since stopping the shared one would end everyone's tests.
 */

// Only one project needs to run these: they drive no browser.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

test('a bad configuration value stops start-up with a message naming the variable', async () => {
  const server = await startServer({ BASE_URL: 'not a url' })
  expect(await server.exited).toBe(1)
  expect(server.output()).toContain('Invalid configuration')
  expect(server.output()).toContain('BASE_URL')
})

test('answers with security headers, compression, asset caching and one log line per request', async ({
  request,
}) => {
  const server = await startServer()
  try {
    await waitUntilListening(server)
    const page = await request.get(`${server.origin}/`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(page.status()).toBe(200)
    const headers = page.headers()
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-xss-protection']).toBeTruthy()
    expect(headers['referrer-policy']).toBeTruthy()
    expect(headers['strict-transport-security']).toContain('max-age=')
    expect(headers['content-encoding']).toBe('gzip')

    const html = await page.text()
    // The framework chunk: big enough to be worth compressing (small chunks, under 1 KB, are not).
    const asset = html.match(/\/assets\/framework-[\w.-]+\.js/)?.[0]
    expect(asset).toBeTruthy()
    const script = await request.get(`${server.origin}${asset}`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(script.status()).toBe(200)
    expect(script.headers()['cache-control']).toContain('immutable')
    expect(script.headers()['content-encoding']).toBe('gzip')
    expect(script.headers()['x-content-type-options']).toBe('nosniff')

    await expect.poll(() => server.output()).toMatch(/GET \/ 200 [\d.]+ms/)
    await expect.poll(() => server.output()).toContain(`GET ${asset} 200`)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('SIGTERM finishes the request in flight, then stops cleanly', async () => {
  const server = await startServer()
  await waitUntilListening(server)
  // The request is sent before the signal and must still be answered.
  const inFlight = fetch(`${server.origin}/tss`)
  await new Promise((resolve) => setTimeout(resolve, 20))
  server.child.kill('SIGTERM')
  const response = await inFlight
  expect(response.status).toBe(200)
  expect(await server.exited).toBe(0)
  expect(server.output()).toContain('SIGTERM')
  expect(server.output()).toContain('Stopped')
})

test('odd requests get a 4xx and the server keeps serving', async ({ baseURL }) => {
  const { port } = new URL(baseURL ?? '')
  const close = 'Connection: close\r\n\r\n'
  const odd: Array<[request: string, status: number]> = [
    [`TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}`, 405],
    [`CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n`, 405],
    [`GET / HTTP/1.1\r\nHost: [\r\n${close}`, 400],
    [`GET / HTTP/1.1\r\nHost: a b\r\n${close}`, 400],
    [`GET / HTTP/1.1\r\nHost: localhost:99999\r\n${close}`, 400],
    [`GET http://[bad/ HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}`, 400],
    [`POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 67108864\r\n\r\n`, 413],
    [`POST /api/rpc/healthCheck HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n`, 413],
  ]
  for (const [request, status] of odd) {
    expect(statusOf(await sendRaw(Number(port), request)), request.split('\r\n', 2).join(' | ')).toBe(status)
    const health = await fetch(`${baseURL}/healthz`)
    expect(health.status).toBe(200)
  }
})

test('a cross-site or opaque-origin post gets the CSRF answer, not a bare 400', async ({ request }) => {
  for (const origin of ['https://evil.example', 'null']) {
    const response = await request.post('/signup', { headers: { Origin: origin }, form: { name: 'x' } })
    expect(response.status()).toBe(403)
    expect(await response.text()).toContain('Invalid CSRF token')
    const data = await request.post('/signup.data', { headers: { Origin: origin }, form: { name: 'x' } })
    expect(data.status()).toBe(403)
  }
})
