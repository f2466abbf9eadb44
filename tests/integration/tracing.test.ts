import { once } from 'node:events'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { closeDatabase } from '~/db/client.server'
import { env, isTracingConfigured, parseEnv, resetEnvForTests } from '~/env.server'
import { carryRequestInfo } from '~/utils/request-info.server'
import { flushTraces, startTracing, tracer, withSpan } from '~/utils/tracing.server'
import { createApp } from '../../server/app'

/**
 * Traces as an OTLP/HTTP collector receives them (docs/decisions/044-metrics-traces-and-structured-logs.md):
 * a local receiver stands in for the collector, speaking http/json. Nothing reaches it while
 * OTEL_EXPORTER_OTLP_ENDPOINT is unset; once set, a request's server span (named by its route,
 * continuing the caller's `traceparent`) has the database's spans beneath it, every span carries the
 * request's id, and an outbound fetch carries the trace on.
 */

type OtlpSpan = {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes: { key: string; value: Record<string, unknown> }[]
}

const exported: OtlpSpan[] = []
const outboundHeaders: IncomingHttpHeaders[] = []
let receiver: Server
let receiverOrigin: string
let app: Server
let appOrigin: string

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        expect(req.headers['content-type']).toContain('application/json')
        const payload = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[]
        }
        for (const resource of payload.resourceSpans)
          for (const scope of resource.scopeSpans) exported.push(...scope.spans)
      } else {
        outboundHeaders.push(req.headers)
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
    })
  })
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`

  const clientDir = mkdtempSync(join(tmpdir(), 'threadwork-client-'))
  mkdirSync(join(clientDir, 'assets'))
  // Through the router, so the request has a route's pattern and the database's statements.
  app = createServer(createApp({ ...env(), FAST_PATHS: false }, { clientDir }))
  app.listen(0, '127.0.0.1')
  await once(app, 'listening')
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
})

afterAll(() => {
  for (const server of [receiver, app]) {
    server.closeAllConnections()
    server.close()
  }
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL
  resetEnvForTests()
})

async function plainGet(url: string, headers: Record<string, string>) {
  const request = get(url, { headers })
  const [response] = (await once(request, 'response')) as [IncomingMessage]
  response.resume()
  await once(response, 'end')
  return response
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((each) => each.key === key)?.value
  return value ? Object.values(value)[0] : undefined
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT unset', () => {
  test('nothing is traced and nothing is sent', async () => {
    expect(isTracingConfigured(env())).toBe(false)
    const response = await fetch(`${appOrigin}/healthz`)
    expect(response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(tracer()).toBeUndefined()
    expect(exported).toEqual([])
    expect(outboundHeaders).toEqual([])
  })
})

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  beforeAll(() => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiverOrigin
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json'
    resetEnvForTests()
    expect(isTracingConfigured(env())).toBe(true)
    // As start-up does (server/app.ts): tracing, request info, then the database opens wrapped.
    startTracing()
    carryRequestInfo()
    closeDatabase()
  })

  test("a request's span continues the caller's trace, with the database's spans beneath it", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const callerSpanId = '00f067aa0ba902b7'
    // node:http, not fetch: this process's fetch is traced now and would send its own traceparent.
    const response = await plainGet(`${appOrigin}/healthz?token=secret-value`, {
      traceparent: `00-${traceId}-${callerSpanId}-01`,
      'X-Request-Id': 'trace-test-1',
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['x-request-id']).toBe('trace-test-1')
    await expect
      .poll(async () => {
        await flushTraces()
        return exported.some((span) => span.name === 'GET /healthz')
      })
      .toBe(true)

    const ofRequest = exported.filter((span) => span.traceId === traceId)
    const server = ofRequest.find((span) => span.name === 'GET /healthz') as OtlpSpan
    expect(server.parentSpanId).toBe(callerSpanId)
    expect(attribute(server, 'http.route')).toBe('/healthz')
    expect(attribute(server, 'http.response.status_code')).toBe(200)
    const statements = ofRequest.filter((span) => span.name.startsWith('db '))
    expect(statements.length).toBeGreaterThan(0)
    for (const statement of statements) expect(statement.parentSpanId).toBe(server.spanId)
    expect(statements.map((span) => span.name)).toContain('db read')
    // Every span of the request carries its id; none carries the URL's query or an address.
    for (const span of ofRequest) {
      expect(attribute(span, 'threadwork.request_id')).toBe('trace-test-1')
      for (const { value } of span.attributes) {
        expect(JSON.stringify(value)).not.toMatch(/secret-value|\?|@/)
      }
    }
  })

  test('an outbound fetch is a child span and carries traceparent in the same trace', async () => {
    await withSpan('outer', {}, async () => {
      await fetch(`${receiverOrigin}/echo?key=not-in-a-span`)
    })
    await flushTraces()
    const sent = outboundHeaders.at(-1)?.traceparent
    expect(sent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    const [, sentTraceId, sentParentId] = String(sent).split('-')
    await expect
      .poll(async () => {
        await flushTraces()
        return exported.some((span) => span.name === 'outer')
      })
      .toBe(true)
    const outer = exported.find((span) => span.name === 'outer') as OtlpSpan
    const client = exported.find((span) => span.spanId === sentParentId) as OtlpSpan
    expect(outer.traceId).toBe(sentTraceId)
    expect(client.name).toBe(`GET 127.0.0.1:${new URL(receiverOrigin).port}`)
    expect(client.parentSpanId).toBe(outer.spanId)
    expect(JSON.stringify(client.attributes)).not.toContain('not-in-a-span')
  })
})

describe('the protocol', () => {
  test('http/json is accepted; one the installed exporter cannot speak stops start-up, named', () => {
    expect(parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).OTEL_EXPORTER_OTLP_PROTOCOL).toBe(
      'http/json',
    )
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    )
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/only http\/json/)
  })
})
