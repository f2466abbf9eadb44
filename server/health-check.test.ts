import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import type { Health } from '~/services/health.server'
import { fastPathStep } from './fast-paths'
import { createHealthCheck } from './health-check'

const servers: ReturnType<typeof createServer>[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** The step in front of a stand-in for the rest of the stack, which answers 404 'passed on'. */
async function serve(door: ReturnType<typeof createHealthCheck>) {
  const step = fastPathStep([door])
  const server = createServer((req, res) =>
    step(req, res, () => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('passed on')),
  )
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

test('GET /healthz answers the health report as JSON, never cached; HEAD the same without a body', async () => {
  const origin = await serve(createHealthCheck(database))
  const response = await fetch(`${origin}/healthz`)
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toBe('application/json')
  expect(response.headers.get('Cache-Control')).toBe('no-store')
  expect((await response.json()) as Health).toMatchObject({
    status: 'ok',
    database: { reachable: true },
    migrations: { isCurrent: true },
  })

  const head = await fetch(`${origin}/healthz`, { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect(await head.text()).toBe('')
})

test('answers 503 when the database does not answer', async () => {
  const unreachable = openDatabase({ url: 'http://127.0.0.1:9' })
  const origin = await serve(createHealthCheck(() => unreachable))
  const response = await fetch(`${origin}/healthz`)
  expect(response.status).toBe(503)
  expect((await response.json()) as Health).toMatchObject({
    status: 'degraded',
    database: { reachable: false },
  })
})

test('other methods and other targets are passed on to the app', async () => {
  const origin = await serve(createHealthCheck(database))
  for (const [path, method] of [
    ['/healthz', 'POST'],
    ['/healthz?verbose', 'GET'],
    ['/healthz/', 'GET'],
    ['/', 'GET'],
  ] as const) {
    const response = await fetch(`${origin}${path}`, { method })
    expect(await response.text(), `${method} ${path}`).toBe('passed on')
  }
})

test('probes arriving while a check runs share it; a later probe runs a new one', async () => {
  let checks = 0
  const step = fastPathStep([
    createHealthCheck(() => {
      checks++
      return database()
    }),
  ])
  const answers: Promise<string>[] = []
  const probe = () =>
    new Promise<string>((resolve) => {
      const res = {
        writeHead: () => res,
        end: (body: string) => resolve(body),
      } as unknown as ServerResponse
      step({ url: '/healthz', method: 'GET', headers: {} } as IncomingMessage, res, () =>
        resolve('passed on'),
      )
    })
  for (let i = 0; i < 5; i++) answers.push(probe())
  const bodies = await Promise.all(answers)
  expect(checks).toBe(1)
  expect(new Set(bodies).size).toBe(1)

  await probe()
  expect(checks).toBe(2)
})
