import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import * as build from 'virtual:react-router/server-build'
import compression from 'compression'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import sirv from 'sirv'
import { clientAddressContext } from '~/auth/client-ip.server'
import { nonceContext } from '~/context'
import { closeDatabase, database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { servingRequest } from '~/db/replicas.server'
import { isDatabaseUnavailable, unavailableResponse, wasUnavailable } from '~/db/unavailable.server'
import { kickOutbox, outboxQueueState, startOutboxWorker, stopOutboxWorker } from '~/email/worker.server'
import {
  type Env,
  env,
  InvalidEnvError,
  isMetricsConfigured,
  isTracingConfigured,
  requestedLogFormat,
} from '~/env.server'
import { jobsQueueState, kickJobRunner, startJobRunner, stopJobRunner } from '~/jobs/jobs.server'
import { securityHeaders } from '~/security.server'
import { warmContent } from '~/services/content.server'
import { startHousekeeping, stopHousekeeping } from '~/services/housekeeping.server'
import { jobHandlers } from '~/services/job-handlers.server'
import {
  startStripeReconciliation,
  stopStripeReconciliation,
} from '~/services/payments/reconciliation.server'
import { startWebhookFanOutWake, stopWebhookFanOutWake } from '~/services/webhooks/fan-out.server'
import { onShutdown, runShutdownHooks } from '~/shutdown.server'
import { eventStreams } from '~/streams/event-streams.server'
import { logRequest, setLogFormat } from '~/utils/log.server'
import {
  aggregateWorkers,
  httpRequestDuration,
  isMetricsOn,
  metricsContentType,
  probeQueues,
  scrape,
  startMetrics,
  statusClass,
} from '~/utils/metrics.server'
import {
  carryRequestInfo,
  type RequestInfo,
  requestIdFrom,
  requestInfoContext,
  runWithRequestInfo,
  UNROUTED,
} from '~/utils/request-info.server'
import {
  endRequestSpan,
  flushTraces,
  incomingContext,
  runInContext,
  startRequestSpan,
  startTracing,
  tracer,
} from '~/utils/tracing.server'
import { bodyLimit } from './body-limits'
import { isClusterWorker, joinSiblings, runPrimary, workerDatabaseUrl } from './cluster'
import { fastPathStep, fastPaths } from './fast-paths'
import { createListener, hardenServer } from './listener'
import { endOnReadError } from './static-read-errors'

/**
 * The production server: node:http with only what a request needs around React Router —
 * security headers, static files, compression, one log line — so the stack stays close to the
 * framework's own throughput (docs/product-rules.md §6). Vite builds it as the SSR entry, so it shares one
 * module graph (one database client, one set of contexts) with the routes it serves.
 */

type Next = () => void

function loadEnv(): Env {
  try {
    return env()
  } catch (error) {
    if (error instanceof InvalidEnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

/**
 * The one place every request passes, first of the steps (docs/decisions/044-metrics-traces-and-structured-logs.md):
 * it gives the request its id (echoed as `X-Request-Id`), and when the response ends or the client
 * leaves (an event stream closed by the browser included) writes its log line, counts it by route,
 * method and status class, and ends its span. What is off costs nothing here: no timing without
 * metrics or a log, no span without tracing, no AsyncLocalStorage without JSON logs or traces.
 */
function observeRequests(config: Env) {
  const isTimed = config.LOG_REQUESTS || isMetricsOn()
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const info: RequestInfo = { id: requestIdFrom(req.headers['x-request-id']), route: UNROUTED }
    requestInfos.set(req, info)
    res.setHeader('X-Request-Id', info.id)
    const traced = tracer()
      ? startRequestSpan(req.method ?? 'GET', info.id, incomingContext(req.headers))
      : undefined
    if (isTimed || traced) {
      const started = process.hrtime.bigint()
      // Read now: serving a static file rewrites req.url on its way through.
      const { method = 'GET', url = '/' } = req
      res.once('close', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6
        const status = res.statusCode
        if (config.LOG_REQUESTS) logRequest({ method, url, status, ms, info })
        if (isMetricsOn())
          httpRequestDuration.observe(
            { route: info.route, method, status_class: statusClass(status) },
            ms / 1000,
          )
        if (traced) endRequestSpan(traced.span, { method, route: info.route, status })
      })
    }
    const run = () => runWithRequestInfo(info, next)
    if (traced) runInContext(traced.context, run)
    else run()
  }
}

/**
 * Runs the rest of a request with room to send its reads to the primary, when its replica cannot
 * catch up with the person's own writes (docs/decisions/051-a-failed-sync-is-not-an-error.md).
 */
function onReplica(_req: IncomingMessage, _res: ServerResponse, next: Next) {
  servingRequest(next)
}

/** Each request's info, from the first step to the request adapter that hands it to the router. */
const requestInfos = new WeakMap<IncomingMessage, RequestInfo>()

function setSecurityHeaders(isProduction: boolean) {
  const headers = securityHeaders(isProduction)
  return (_req: IncomingMessage, res: ServerResponse, next: Next) => {
    for (const [name, value] of headers) res.setHeader(name, value)
    next()
  }
}

/** Hashed assets never change under their name; everything else in public/ may. */
function serveStatic(clientDir: string) {
  const assets = sirv(resolve(clientDir, 'assets'), {
    immutable: true,
    maxAge: 31_536_000,
    etag: true,
    gzip: true,
    brotli: true,
  })
  const publicFiles = sirv(clientDir, { maxAge: 3600, etag: true, gzip: true, brotli: true })
  const entries = topLevelEntries(clientDir)
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    if (!mayBeFile(req.url ?? '/', entries)) return next()
    endOnReadError(res)
    nameRoute(req, 'static')
    if (req.url?.startsWith('/assets/')) {
      req.url = req.url.slice('/assets'.length)
      return assets(req, res, () => {
        req.url = `/assets${req.url}`
        next()
      })
    }
    return publicFiles(req, res, next)
  }
}

/**
 * The names a static path can start with: the folder's entries, and page names without their
 * .html (sirv serves /about from about.html). Like sirv in production, it is read once at start.
 */
function topLevelEntries(dir: string) {
  const entries = new Set<string>()
  for (const name of readdirSync(dir)) {
    entries.add(name)
    entries.add(name.replace(/\.html?$/, ''))
  }
  return entries
}

/**
 * Whether a URL could name a static file, by its first path segment: most requests (pages, /api,
 * /healthz) cannot, and skip sirv's lookups. Percent-encoded paths go to sirv, which decodes them.
 */
function mayBeFile(url: string, entries: Set<string>) {
  if (url.includes('%')) return true
  const end = url.slice(1).search(/[/?]/)
  const first = end === -1 ? url.slice(1) : url.slice(1, end + 1)
  return entries.has(first === '' ? 'index' : first)
}

/**
 * Compress what is worth compressing; never an event stream, which must flush as it goes, nor a
 * byte range of a file, whose offsets refer to the uncompressed bytes.
 */
const compress = compression({
  filter: (req, res) => {
    const type = String(res.getHeader('Content-Type') ?? '')
    return !type.startsWith('text/event-stream') && res.statusCode !== 206 && compression.filter(req, res)
  },
})

/**
 * The raw server build, so `npm run bench` can serve the same app on a bare
 * `createRequestListener` (the framework floor our stack is measured against, docs/product-rules.md §6).
 * @public read from build/server/index.js, which knip cannot follow to this file
 */
export const serverBuild = build as unknown as ServerBuild

/**
 * A fresh CSP nonce (16 random bytes, base64) per request, cut from a pool of random bytes
 * refilled 4 KB at a time: one call into the system's random source per 256 requests instead of
 * one per request, as Node does for randomUUID. Every nonce is still unpredictable and unique.
 */
let noncePool = Buffer.alloc(0)
let noncePoolOffset = 0
function nextNonce() {
  if (noncePoolOffset + 16 > noncePool.length) {
    noncePool = randomBytes(4096)
    noncePoolOffset = 0
  }
  noncePoolOffset += 16
  return noncePool.toString('base64', noncePoolOffset - 16, noncePoolOffset)
}

/** Names the route of a request answered before the router: a door's name, or static files. */
function nameRoute(req: IncomingMessage, route: string) {
  const info = requestInfos.get(req)
  if (info) info.route = route
}

/** `clientDir`: the built browser files served as static files (tests point it elsewhere). */
export function createApp(config: Env, { clientDir = 'build/client' } = {}) {
  const handleRequest = createRequestHandler(serverBuild, config.NODE_ENV)
  const listener = createListener({
    publicOrigin: new URL(config.BASE_URL),
    trustProxy: config.TRUST_PROXY,
    bodyLimit,
    async handle(request, client, req) {
      const context = new RouterContextProvider()
      context.set(nonceContext, nextNonce())
      context.set(clientAddressContext, client.address ?? null)
      // The root middleware names the route it matched here (app/auth/middleware.server.ts).
      const info = requestInfos.get(req)
      if (info) info.route = UNROUTED
      context.set(requestInfoContext, info ?? null)
      // A database out of reach is a 503 with Retry-After wherever it struck (app/db/unavailable.server.ts).
      const response = await handleRequest(request, context).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) return unavailableResponse(request)
        throw error
      })
      if (!wasUnavailable(context)) return response
      await response.body?.cancel()
      return unavailableResponse(request)
    },
  })
  const steps = [
    observeRequests(config),
    // On an embedded replica a request may have to read from the primary (app/db/replicas.server.ts).
    ...(config.DATABASE_SYNC_URL ? [onReplica] : []),
    setSecurityHeaders(config.isProduction),
    // The only requests answered ahead of compression and React Router, each with its reason
    // (server/fast-paths.ts); FAST_PATHS=off sends them through the router like everything else.
    ...(config.FAST_PATHS ? [fastPathStep(fastPaths({ db: database, eventStreams }), nameRoute)] : []),
    // Before the static files, so the JavaScript and CSS in /assets/ travel compressed too (the
    // build writes no .gz/.br files for sirv to send instead).
    compress as (req: IncomingMessage, res: ServerResponse, next: Next) => void,
    serveStatic(resolve(clientDir)),
  ]
  return (req: IncomingMessage, res: ServerResponse) => {
    let index = 0
    const next = () => {
      const step = steps[index++]
      if (!step) return listener(req, res)
      try {
        step(req, res, next)
      } catch (error) {
        // A step that throws is a bug, but one request must never end the process (the adapter
        // answers everything it cannot serve; this covers the steps in front of it).
        console.error('Request step failed', error)
        if (!res.headersSent)
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error')
        else res.destroy()
      }
    }
    next()
  }
}

/**
 * Starts the production server. With `WEB_CONCURRENCY` above 1 this process becomes the cluster's
 * primary: it migrates, then forks the workers, each of which calls this again and serves.
 * @public called by server.js through build/server/index.js
 */
export async function startServer() {
  // First, so every line from here on (the configuration's own complaint included) is in it.
  setLogFormat(requestedLogFormat())
  const config = loadEnv()
  startObserving(config)
  if (isClusterWorker()) return serve(config)
  if (config.isSessionSecretGenerated && config.isProduction) {
    console.warn('SESSION_SECRET is not set: using a random one, so sessions end on restart.')
  }
  // Once, before any worker exists: workers never migrate (docs/decisions/003-libsql-drizzle.md).
  await migrateDatabase(database())
  if (config.WEB_CONCURRENCY === 1) return serve(config)
  closeDatabase()
  // The primary owns no requests: it answers scrapes for every worker, on its own port and
  // through the worker asked at /metrics.
  if (isMetricsConfigured(config)) {
    const scrapeWorkers = aggregateWorkers()
    if (config.METRICS_PORT !== undefined) serveMetrics(config, scrapeWorkers)
  }
  // A generated secret is shared, so a cookie signed by one worker is good at every other.
  runPrimary({
    workers: config.WEB_CONCURRENCY,
    env: (slot) => ({
      SESSION_SECRET: config.SESSION_SECRET,
      DATABASE_URL: workerDatabaseUrl(config.DATABASE_URL, Boolean(config.DATABASE_SYNC_URL), slot),
    }),
  })
}

/**
 * What is on is decided once, here, before the database opens (it wraps its statements only when
 * metrics or tracing are on) and before any request: hot paths test a flag, never the configuration.
 */
function startObserving(config: Env) {
  if (isMetricsConfigured(config)) startMetrics()
  if (isTracingConfigured(config)) startTracing()
  if (config.LOG_FORMAT === 'json' || isTracingConfigured(config)) carryRequestInfo()
}

/**
 * The metrics' own listener, on METRICS_HOST:METRICS_PORT (on Fly the private network,
 * fly-local-6pn): GET /metrics, no token (it is not on the public interface), nothing else.
 */
function serveMetrics(config: Env, metricsText: () => Promise<string>) {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found\n')
      return
    }
    metricsText().then(
      (text) => res.writeHead(200, { 'Content-Type': metricsContentType }).end(text),
      (error: unknown) => {
        console.error('Metrics scrape failed', error)
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Scrape failed\n')
      },
    )
  })
  server.listen(config.METRICS_PORT, config.METRICS_HOST, () =>
    console.log(`Metrics on http://${config.METRICS_HOST}:${config.METRICS_PORT}/metrics`),
  )
  // A scrape listener never keeps the process from stopping.
  server.unref()
  return server
}

/** The outbox and the jobs table, read at each scrape (with metrics off nobody scrapes). */
export function observeQueues() {
  probeQueues({ outbox: () => outboxQueueState(database()), jobs: () => jobsQueueState(database()) })
}

/** One process serving requests: the whole server alone, or one worker of a cluster. */
function serve(config: Env) {
  // Alone, this process answers its own scrapes; a cluster's primary listens for all its workers.
  if (config.METRICS_PORT !== undefined && !isClusterWorker()) serveMetrics(config, scrape)
  observeQueues()
  // Every instance delivers the shared outbox; stopping lets the e-mail in flight finish first.
  startOutboxWorker()
  onShutdown(stopOutboxWorker)
  // Likewise for deferred work (mention e-mails): any instance may run a due job, exactly once,
  // looking at once after every commit of this process or a sibling worker (below).
  // A finished job may have queued e-mail: the outbox is woken to send it now.
  startJobRunner({ handlers: jobHandlers, onJobDone: kickOutbox })
  onShutdown(stopJobRunner)
  // A commit that logged an event a webhook endpoint has not heard of brings the fan-out forward.
  startWebhookFanOutWake()
  onShutdown(stopWebhookFanOutWake)
  // Now and hourly: events older than a stream may resume from (24 hours), expired sessions, ended
  // rate-limit windows; and the due-date reminders' job, which runs every minute, made sure of.
  startHousekeeping()
  onShutdown(stopHousekeeping)
  // With Stripe on, now and hourly: events Stripe holds that our records lack (a commit lost
  // after Stripe was answered, an endpoint down for days) are applied as the webhook would.
  startStripeReconciliation()
  onShutdown(stopStripeReconciliation)
  // Streams end first on SIGTERM, so clients reconnect to another instance and close() completes.
  // One set of streams per process, whether the door ahead of the router or the route serves them.
  const streams = eventStreams()
  onShutdown(() => streams.close())
  joinSiblings(() => {
    streams.broadcaster.nudge()
    kickJobRunner()
  })
  // In the background: a visitor never waits for a compilation (the build precompiled them already
  // when it ran scripts/build-content.ts); a bad content file is reported here, and on its pages.
  warmContent().catch((error) => console.error(error instanceof Error ? error.message : error))

  // Whatever a request does, the process keeps serving: each request's own failures end only its
  // response (server/listener.ts); this catches a promise some library forgot to await.
  process.on('unhandledRejection', (reason) => console.error('Unhandled rejection:', reason))

  // Timeouts are checked every 2 s instead of Node's 30 s, so a slow client is cut off on time.
  const server = createServer({ connectionsCheckingInterval: 2_000 }, createApp(config))
  // An idle keep-alive connection outlives a proxy's idle timeout (60 s on most), so the proxy
  // closes it first; a request must arrive whole far sooner.
  hardenServer(server, { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 })
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : config.PORT
    const worker = isClusterWorker() ? `, worker ${process.pid}` : ''
    console.log(`Threadwork listening on http://${config.HOST}:${port} (${config.BASE_URL})${worker}`)
  })

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: finishing in-flight requests, then stopping`)
    // Long-lived responses (event streams) end first, so close() can complete.
    void runShutdownHooks().then(() => {
      server.close(async () => {
        closeDatabase()
        await flushTraces().catch(() => {})
        console.log('Stopped')
        process.exit(0)
      })
      // close() waits for every connection. A keep-alive connection whose request was in flight
      // turns idle only once its response is sent, so keep closing idle ones until none is left.
      server.closeIdleConnections()
      setInterval(() => server.closeIdleConnections(), 100).unref()
    })
    setTimeout(() => {
      console.error('Forced exit: requests still open after 10 s')
      process.exit(1)
    }, 10_000).unref()
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  return server
}
