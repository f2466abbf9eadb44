import { request as httpRequest } from 'node:http'
import { freePort } from '../helpers/free-port'
import { type Running, startServer, stopServer } from './app-process'
import { expect, test } from './fixtures'

/**
 * The built server as `WEB_CONCURRENCY=2` with metrics and JSON logs on
 * (docs/decisions/044-metrics-traces-and-structured-logs.md): requests on fresh connections are
 * spread over both workers (the JSON lines name each one's pid), and one scrape — of the
 * primary's own listener on METRICS_PORT, or of /metrics on the app's port through whichever
 * worker takes it — counts every one of them.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

const TOKEN = 'cluster-metrics-token-0123456789'
const PROBES = 12

/** GET on a connection of its own, so the primary hands it to the next worker in turn. */
function getFresh(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

function healthCount(metrics: string) {
  const line = metrics
    .split('\n')
    .find((each) =>
      each.startsWith(
        'threadwork_http_request_duration_seconds_count{route="health",method="GET",status_class="2xx"}',
      ),
    )
  return Number(line?.split(' ').at(-1) ?? 0)
}

function pidsServing(server: Running) {
  const pids = new Set<number>()
  for (const line of server.output().split('\n')) {
    if (!line.startsWith('{')) continue
    const parsed = JSON.parse(line) as { route?: string; pid: number }
    if (parsed.route === 'health') pids.add(parsed.pid)
  }
  return pids
}

test('one scrape covers every worker, on the metrics port and at /metrics', async () => {
  // Three processes start on a machine that may be busy with other work.
  test.setTimeout(180_000)
  const metricsPort = await freePort()
  const server = await startServer({
    WEB_CONCURRENCY: '2',
    METRICS_PORT: String(metricsPort),
    METRICS_TOKEN: TOKEN,
    LOG_FORMAT: 'json',
  })
  try {
    await expect.poll(() => server.output().match(/listening on/g)?.length ?? 0, { timeout: 120_000 }).toBe(2)
    // Start-up lines are JSON too.
    for (const line of server.output().split('\n').filter(Boolean))
      expect(() => JSON.parse(line)).not.toThrow()

    for (let i = 0; i < PROBES; i++) expect((await getFresh(`${server.origin}/healthz`)).status).toBe(200)
    await expect.poll(() => pidsServing(server).size).toBe(2)

    const own = await getFresh(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(own.status).toBe(200)
    expect(healthCount(own.body)).toBe(PROBES)

    const viaApp = await getFresh(`${server.origin}/metrics`, { Authorization: `Bearer ${TOKEN}` })
    expect(viaApp.status).toBe(200)
    expect(healthCount(viaApp.body)).toBe(PROBES)
    // A scrape is a request like any other, counted by its route once it has ended.
    const again = await getFresh(`${server.origin}/metrics`, { Authorization: `Bearer ${TOKEN}` })
    expect(again.body).toContain('threadwork_http_request_duration_seconds_count{route="/metrics"')
    expect((await getFresh(`${server.origin}/metrics`)).status).toBe(401)
  } finally {
    await stopServer(server)
  }
})
