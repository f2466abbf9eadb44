import cluster from 'node:cluster'
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/**
 * Prometheus metrics (docs/decisions/044-metrics-traces-and-structured-logs.md). Every metric of
 * the app is defined here, once, with labels of a few known values only: a route's pattern, a
 * method, a status class, an outcome, a kind; never a person's id or address, a task's id or a raw
 * URL (tests/integration/metrics.test.ts scans every value). Off by default: with neither
 * `METRICS_PORT` nor `METRICS_TOKEN` set, `startMetrics` is never called, the per-request and
 * per-statement timings are not taken, and nothing is served. With `WEB_CONCURRENCY` above 1 the
 * cluster's primary asks every worker and answers with the sum (`scrape`).
 */

const registry = new Registry()
const registers = [registry]

let isOn = false

/** Whether metrics were switched on at start-up: hot paths time themselves only then. */
export const isMetricsOn = () => isOn

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Histogram<L>({ name, help, labelNames, buckets: SECONDS_BUCKETS, registers })
const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Counter<L>({ name, help, labelNames, registers })

export const httpRequestDuration = histogram(
  'threadwork_http_request_duration_seconds',
  'Requests by route (the router pattern or the door ahead of it), method and status class, until the response ended or the client left; _count counts every request',
  ['route', 'method', 'status_class'] as const,
)

export const eventStreamSubscribers = new Gauge({
  name: 'threadwork_event_stream_subscribers',
  help: 'Open event streams (server-sent events)',
  registers,
})

export const eventStreamEventsSent = counter(
  'threadwork_event_stream_events_sent_total',
  'Events written to event-stream subscribers (one per subscriber that receives it), by feed',
  ['feed'] as const,
)

export const eventStreamFanOut = histogram(
  'threadwork_event_stream_fanout_seconds',
  "Fan-out lag: from a commit in this process (or, for another instance's, the poll that found it) to every subscriber having its events",
)

export const dbStatementDuration = histogram(
  'threadwork_db_statement_duration_seconds',
  'Database statements by kind: read, write, or batch (one atomic commit of several)',
  ['kind'] as const,
)

export const dbBusyRetries = counter(
  'threadwork_db_busy_retries_total',
  'Batches sent again because the database answered SQLITE_BUSY',
)

const OUTCOMES = 'by outcome: sent, retry (failed, will be tried again), failed (given up)'

export const emailDeliveries = counter(
  'threadwork_email_deliveries_total',
  `E-mail delivery attempts ${OUTCOMES}`,
  ['outcome'] as const,
)

/** For webhook deliveries (sent, retry, failed), recorded by the webhook sender. */
export const webhookDeliveries = counter(
  'threadwork_webhook_deliveries_total',
  `Webhook delivery attempts ${OUTCOMES}`,
  ['outcome'] as const,
)

export const jobRuns = counter(
  'threadwork_job_runs_total',
  'Jobs run, by type and outcome: done, retry, failed (given up)',
  ['type', 'outcome'] as const,
)

export const aiChatRequests = counter(
  'threadwork_ai_chat_requests_total',
  'AI chat answers generated, by model provider and outcome (done, stopped, failed)',
  ['backend', 'outcome'] as const,
)

export const aiChatTokens = counter(
  'threadwork_ai_chat_tokens_total',
  'Tokens the AI endpoint reported using, by model provider and direction (input, output)',
  ['backend', 'direction'] as const,
)

/** A queue the database holds (the e-mail outbox, the jobs table), as a probe reads it. */
export type QueueState = { pending: number; failed: number; oldestPendingAgeSeconds: number }

/** A probe's row (counts, and the oldest pending item's due time in ms or null) as a state. */
export function queueState(
  row: { pending: number; failed: number; oldestDue: number | null } | undefined,
  now: number,
): QueueState {
  return {
    pending: Number(row?.pending ?? 0),
    failed: Number(row?.failed ?? 0),
    oldestPendingAgeSeconds: row?.oldestDue == null ? 0 : Math.max(0, (now - Number(row.oldestDue)) / 1000),
  }
}

type QueueProbes = Partial<Record<'outbox' | 'jobs', () => Promise<QueueState>>>
let queueProbes: QueueProbes = {}

/** The queues are read from the database at each scrape, by the probes the server hands in. */
export function probeQueues(probes: QueueProbes) {
  queueProbes = probes
}

// Every worker reads the same tables: in a cluster the primary keeps one worker's answer ('max'),
// never their sum.
const queueGauge = (name: string, help: string, field: keyof QueueState) =>
  new Gauge({
    name,
    help,
    labelNames: ['queue'] as const,
    aggregator: 'max',
    registers,
    async collect() {
      for (const [queue, probe] of Object.entries(queueProbes)) {
        if (probe) this.set({ queue }, (await probe())[field])
      }
    },
  })

queueGauge('threadwork_queue_pending', 'Items waiting in the outbox or the jobs table', 'pending')
queueGauge('threadwork_queue_failed', 'Items given up after their last attempt, kept for a look', 'failed')
queueGauge(
  'threadwork_queue_oldest_pending_age_seconds',
  'How long the oldest waiting item has been due (0 when none is)',
  'oldestPendingAgeSeconds',
)

/** `2xx`, `4xx`, … */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`

/** Called once at start-up when METRICS_PORT or METRICS_TOKEN is set, in every process. */
export function startMetrics() {
  if (isOn) return
  isOn = true
  collectDefaultMetrics({ register: registry })
  if (cluster.isWorker) {
    // Constructing one makes prom-client answer the primary's requests with this registry.
    new AggregatorRegistry()
    AggregatorRegistry.setRegistries([registry])
  }
}

const SCRAPE_REQUEST = 'threadwork:metrics-scrape'
const SCRAPE_ANSWER = 'threadwork:metrics-answer'
const SCRAPE_LIMIT_MS = 6_000

type ScrapeMessage = { type: string; id: number; text?: string; error?: string }

const isScrapeMessage = (message: unknown, type: string): message is ScrapeMessage =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type

let nextScrape = 0

/**
 * The metrics text for a scrape. Alone, this process's registry; in a cluster worker (the app's
 * port, /metrics) the primary's aggregate of every worker, asked for over IPC.
 */
export async function scrape(): Promise<string> {
  if (!cluster.isWorker) return registry.metrics()
  const id = nextScrape++
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error('The primary did not answer the scrape')),
      SCRAPE_LIMIT_MS,
    )
    const onMessage = (message: unknown) => {
      if (!isScrapeMessage(message, SCRAPE_ANSWER) || message.id !== id) return
      finish(message.error ? new Error(message.error) : undefined, message.text)
    }
    const finish = (error: Error | undefined, text = '') => {
      clearTimeout(timer)
      process.off('message', onMessage)
      if (error) reject(error)
      else resolve(text)
    }
    process.on('message', onMessage)
    process.send?.({ type: SCRAPE_REQUEST, id })
  })
}

/**
 * In the cluster's primary: aggregates every worker's metrics, for its own METRICS_PORT listener
 * and for a worker asked at /metrics.
 */
export function aggregateWorkers() {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message) => {
    if (!isScrapeMessage(message, SCRAPE_REQUEST)) return
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: SCRAPE_ANSWER, id: message.id, text }),
      (error: Error) =>
        worker.isConnected() && worker.send({ type: SCRAPE_ANSWER, id: message.id, error: error.message }),
    )
  })
  return () => aggregator.clusterMetrics()
}

export const metricsContentType = registry.contentType
