import { once } from 'node:events'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { closeDatabase, database } from '~/db/client.server'
import { queueEmail } from '~/email/outbox.server'
import { logTransport } from '~/email/transport.server'
import { createOutboxWorker } from '~/email/worker.server'
import { env, resetEnvForTests } from '~/env.server'
import { eventStreams } from '~/streams/event-streams.server'
import { startMetrics } from '~/utils/metrics.server'
import { createApp, observeQueues } from '../../server/app'
import { signedInBrowser } from '../helpers/auth'
import { createTask, createUser } from '../helpers/factories'
import { openEventSource } from '../helpers/sse'

/**
 * The metrics as an operator's scraper sees them (docs/decisions/044-metrics-traces-and-structured-logs.md):
 * the whole server (server/app.ts) with metrics on, a scripted load — health probes, a page, a
 * comment written over RPC while an event stream listens, an e-mail delivered — then GET /metrics
 * with the bearer token, which must show the counts that load caused. Every label value is then
 * scanned for what must never be one: an e-mail address, an id, a URL.
 */

const TOKEN = 'metrics-token-for-tests-0123456789'
let server: Server
let origin: string
const made = { emails: [] as string[], ids: [] as string[] }

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN
  resetEnvForTests()
  // As start-up does: metrics first, then the database opens with its statements timed.
  startMetrics()
  observeQueues()
  closeDatabase()
  const clientDir = mkdtempSync(join(tmpdir(), 'threadwork-client-'))
  mkdirSync(join(clientDir, 'assets'))
  server = createServer(createApp(env(), { clientDir }))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  eventStreams().close()
  server.closeAllConnections()
  server.close()
  delete process.env.METRICS_TOKEN
  resetEnvForTests()
})

type Sample = { name: string; labels: Record<string, string>; value: number }

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toContain('text/plain')
  return parse(await response.text())
}

function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (!match) throw new Error(`Not a sample: ${line}`)
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
      )
      return { name: match[1] as string, labels, value: Number(match[3]) }
    })
}

function total(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
  return found.reduce((sum, sample) => sum + sample.value, 0)
}

const requests = (samples: Sample[], route: string, method: string, statusClass: string) =>
  total(samples, 'threadwork_http_request_duration_seconds_count', {
    route,
    method,
    status_class: statusClass,
  })

describe('a scrape after a scripted load', () => {
  test('counts what the load did', async () => {
    const db = database()
    const owner = await createUser(db, { name: 'Ada Metrics' })
    const task = await createTask(db, { userId: owner.id, text: 'Watch the counters' })
    const browser = await signedInBrowser(db, owner.id)
    made.emails.push(owner.email)
    made.ids.push(owner.id, task.id, browser.session.id)
    const before = await scrape()

    for (let i = 0; i < 3; i++) expect((await fetch(`${origin}/healthz`)).status).toBe(200)
    expect((await fetch(`${origin}/api/rpc/task/noSuch${task.id.slice(0, 8)}`)).status).toBe(404)

    const stream = openEventSource(`${origin}/api/events/comments?taskId=${task.id}`, browser.cookie)
    await stream.waitFor('ready')
    const written = await fetch(`${origin}/api/rpc/comments/addComment`, {
      method: 'POST',
      headers: browser.headers({ extra: { 'Content-Type': 'application/json' } }),
      body: JSON.stringify({ json: { taskId: task.id, content: 'Counted, I hope' } }),
    })
    expect(written.status).toBe(200)
    await stream.waitFor('comment-added')
    stream.close()

    await queueEmail(db, { to: owner.email, subject: 'Counted', html: '<p>Hi</p>', text: 'Hi' })
    const queued = await scrape()
    expect(total(queued, 'threadwork_queue_pending', { queue: 'outbox' })).toBe(1)
    expect(total(queued, 'threadwork_queue_pending', { queue: 'jobs' })).toBe(0)
    expect(
      total(queued, 'threadwork_queue_oldest_pending_age_seconds', { queue: 'outbox' }),
    ).toBeGreaterThanOrEqual(0)
    expect(
      queued.some((sample) => sample.name === 'threadwork_queue_failed' && sample.labels.queue === 'jobs'),
    ).toBe(true)
    const worker = createOutboxWorker({ transport: logTransport(() => {}) })
    expect(await worker.deliverDue()).toBe(1)
    await worker.stop()

    // The stream's request is counted once its client has gone.
    await expect
      .poll(
        async () =>
          requests(await scrape(), 'event streams', 'GET', '2xx') -
          requests(before, 'event streams', 'GET', '2xx'),
      )
      .toBe(1)
    const after = await scrape()
    const grew = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels)

    expect(requests(after, 'health', 'GET', '2xx') - requests(before, 'health', 'GET', '2xx')).toBe(3)
    expect(requests(after, '/api/rpc/*', 'GET', '4xx') - requests(before, '/api/rpc/*', 'GET', '4xx')).toBe(1)
    expect(requests(after, '/api/rpc/*', 'POST', '2xx') - requests(before, '/api/rpc/*', 'POST', '2xx')).toBe(
      1,
    )
    expect(grew('threadwork_db_statement_duration_seconds_count', { kind: 'batch' })).toBeGreaterThanOrEqual(
      1,
    )
    expect(grew('threadwork_db_statement_duration_seconds_count', { kind: 'read' })).toBeGreaterThanOrEqual(1)
    expect(grew('threadwork_event_stream_events_sent_total', { feed: 'comments' })).toBe(1)
    // The comment's commit woke the broadcaster: its fan-out lag was observed from that commit.
    expect(grew('threadwork_event_stream_fanout_seconds_count')).toBeGreaterThanOrEqual(1)
    expect(grew('threadwork_email_deliveries_total', { outcome: 'sent' })).toBe(1)
    expect(total(after, 'threadwork_event_stream_subscribers')).toBe(0)
    expect(total(after, 'threadwork_queue_pending', { queue: 'outbox' })).toBe(0)
    expect(after.some((sample) => sample.name === 'threadwork_queue_oldest_pending_age_seconds')).toBe(true)
    // Node's own: the event loop, the heap, garbage collection.
    expect(after.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true)
    expect(after.some((sample) => sample.name === 'nodejs_heap_size_used_bytes')).toBe(true)
  })

  test('no label value is an e-mail address, an id or a URL', async () => {
    const samples = await scrape()
    const values = new Set(samples.flatMap((sample) => Object.values(sample.labels)))
    expect(values.size).toBeGreaterThan(5)
    expect([...values]).toContain('/api/rpc/*')
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i
    for (const value of values) {
      expect(value, value).not.toMatch(/@|:\/\/|\?|=/)
      expect(value, value).not.toMatch(UUID)
      expect(value, value).not.toMatch(/[0-9a-z]{20,}/i)
      for (const secret of [...made.emails, ...made.ids]) expect(value, value).not.toContain(secret)
    }
  })
})

describe('the /metrics route on the app port', () => {
  test('asks for the bearer token', async () => {
    const without = await fetch(`${origin}/metrics`)
    expect(without.status).toBe(401)
    expect(without.headers.get('WWW-Authenticate')).toContain('Bearer')
    const wrong = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).not.toContain('threadwork_')
  })

  test('does not exist without METRICS_TOKEN', async () => {
    delete process.env.METRICS_TOKEN
    resetEnvForTests()
    try {
      const response = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      expect(response.status).toBe(404)
    } finally {
      process.env.METRICS_TOKEN = TOKEN
      resetEnvForTests()
    }
  })
})
