import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node'
import { currentRequestInfo } from './request-info.server'

/**
 * OpenTelemetry traces (docs/decisions/044-metrics-traces-and-structured-logs.md), off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then a span per request (server/app.ts), one per database
 * statement or batch (app/db/observed.server.ts), one per outbound `fetch` (Stripe, the AI
 * endpoint, OAuth providers, GitHub, webhooks) with `traceparent` sent on, one per job and per
 * e-mail sent, all exported as OTLP over HTTP with JSON bodies. The exporter reads the standard
 * `OTEL_EXPORTER_OTLP_*` variables itself (endpoint, headers, timeout), the SDK reads
 * `OTEL_TRACES_SAMPLER*`, `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 *
 * Tracing off costs nothing per request: `tracer()` is undefined, nothing is wrapped, and callers
 * test it once. Attributes never carry personal data: no e-mail, name, text of a task, comment or
 * chat, token, cookie or URL query — routes, methods, statuses, hosts and kinds only.
 */

let active: { tracer: Tracer; provider: NodeTracerProvider } | undefined

/** The tracer when tracing is on; undefined otherwise (check once, wrap nothing). */
export const tracer = () => active?.tracer

/** Every span of a request carries its id, whoever starts it. */
const requestIdOnEverySpan: SpanProcessor = {
  onStart(span) {
    const info = currentRequestInfo()
    if (info) span.setAttribute('threadwork.request_id', info.id)
  },
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
}

/** Starts tracing to the OTLP endpoint; called once at start-up when the endpoint is set. */
export function startTracing() {
  if (active) return active.tracer
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'threadwork' }))
    .merge(detectResources({ detectors: [envDetector] }))
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [requestIdOnEverySpan, new BatchSpanProcessor(new OTLPTraceExporter())],
  })
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register()
  active = { tracer: trace.getTracer('threadwork'), provider }
  traceOutboundFetches(active.tracer)
  return active.tracer
}

/** Sends what is buffered (tests; shutdown). */
export async function flushTraces() {
  await active?.provider.forceFlush()
}

/**
 * Runs `run` inside a span named `name` (a child of the span in hand), ending it when `run`
 * settles and marking it failed when `run` throws. Without tracing, just `run()`.
 * `attributes` must hold no personal data (see above).
 */
export function withSpan<T>(name: string, attributes: Attributes, run: () => Promise<T>): Promise<T> {
  const current = active?.tracer
  if (!current) return run()
  return current.startActiveSpan(name, { attributes }, (span) => settle(span, run))
}

async function settle<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' })
    throw error
  } finally {
    span.end()
  }
}

/** The context of an incoming request: its caller's trace when it sent a valid `traceparent`. */
export function incomingContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers)
}

/** Starts a request's server span under `parent`; the caller names it by its route at the end. */
export function startRequestSpan(method: string, requestId: string, parent: Context) {
  // Its own id is set here: the request's info is not yet carried when its first span starts.
  const span = (active as { tracer: Tracer }).tracer.startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'threadwork.request_id': requestId },
    },
    parent,
  )
  return { span, context: trace.setSpan(parent, span) }
}

export function endRequestSpan(
  span: Span,
  { method, route, status }: { method: string; route: string; status: number },
) {
  span.updateName(`${method} ${route}`)
  span.setAttributes({ 'http.route': route, 'http.response.status_code': status })
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}

export const runInContext = <T>(ctx: Context, run: () => T) => context.with(ctx, run)

/**
 * Every outbound `fetch` becomes a client span named by its method and host (no path, no query),
 * and carries `traceparent`, so the service called joins the same trace.
 */
function traceOutboundFetches(current: Tracer) {
  const original = globalThis.fetch
  globalThis.fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase()
    const url = new URL(request?.url ?? String(input))
    return current.startActiveSpan(
      `${method} ${url.host}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': method, 'server.address': url.hostname },
      },
      (span) =>
        settle(span, async () => {
          const headers = new Headers(init?.headers ?? request?.headers)
          propagation.inject(context.active(), headers, {
            set: (carrier, key, value) => carrier.set(key, value),
          })
          const response = await original(input, { ...init, headers })
          span.setAttribute('http.response.status_code', response.status)
          return response
        }),
    )
  }
}
