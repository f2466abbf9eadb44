import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'

/**
 * The production server's own duties, seen from outside: headers, compression, caching, the
 * request log, configuration errors and a graceful stop. Each test starts its own `node server.js`
 * (the built app), since stopping the shared one would end everyone's tests.
 */

// Only one project needs to run these: they drive no browser.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

type Running = { child: ChildProcess; origin: string; output: () => string; exited: Promise<number | null> }

async function startServer(env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort()
  const folder = mkdtempSync(join(tmpdir(), 'server-e2e-'))
  let output = ''
  const child = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `file:${join(folder, 'app.db')}`,
      LOG_REQUESTS: 'true',
      SMTP_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(folder, { recursive: true, force: true })
      resolve(code)
    }),
  )
  return { child, origin: `http://127.0.0.1:${port}`, output: () => output, exited }
}

async function waitUntilListening(server: Running) {
  await expect.poll(() => server.output(), { timeout: 30_000 }).toContain('listening on')
}

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
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0]
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
