import { once } from 'node:events'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Turns node:http requests into Fetch `Request`s for React Router and writes its `Response`s
 * back: our own version of the adapter inside `@react-router/node`, because that one builds the
 * `Request` outside its try/catch (a TRACE, a bad Host or target ended the process), reads any
 * body of any size, and takes the protocol from the socket, which behind a TLS-terminating proxy
 * is http while the browser's Origin says https. Here every request the server cannot turn into a
 * `Request` gets a 4xx, a body over its path's limit gets a 413 before anything parses it, the
 * URL carries the public origin, and a failure anywhere ends that one response, never the process.
 */

type ClientAddress = {
  address: string | undefined
  family: string | undefined
  port: number | undefined
}

export type ListenerOptions = {
  /** The public address (BASE_URL): a request for its host gets its protocol. */
  publicOrigin: URL
  /** Take the protocol and host from X-Forwarded-Proto / X-Forwarded-Host (behind a known proxy). */
  trustProxy: boolean
  /** The most bytes a request body to this path may have. */
  bodyLimit: (pathname: string) => number
  /** `req` is the node request the `Request` was made from, for what the steps before kept on it. */
  handle: (request: Request, client: ClientAddress, req: IncomingMessage) => Promise<Response>
  log?: (message: string, error?: unknown) => void
}

/** Methods the app serves. Fetch refuses TRACE, TRACK and CONNECT outright; WebDAV's we never use. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const ALLOW = [...METHODS].join(', ')

/**
 * An answer given before the request reaches the app: a status, a machine-readable code and a
 * sentence. JSON endpoints (under /api/) get `{code, message}` as their other refusals are; pages a
 * line of plain text.
 */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function createListener(options: ListenerOptions) {
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''))
  return (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res, options).catch((error: unknown) => {
      log(`${req.method} ${req.url} failed`, error)
      if (!res.headersSent)
        sendRefusal(req, res, new Refusal(500, 'INTERNAL_SERVER_ERROR', 'Internal Server Error'))
      else res.destroy()
    })
  }
}

async function serve(req: IncomingMessage, res: ServerResponse, options: ListenerOptions) {
  const controller = new AbortController()
  res.once('close', () => controller.abort())

  let request: Request
  try {
    const url = requestUrl(req, options)
    const method = req.method ?? 'GET'
    const hasBody = method !== 'GET' && method !== 'HEAD'
    const body = hasBody ? await readBody(req, options.bodyLimit(url.pathname)) : undefined
    request = new Request(url, { method, headers: requestHeaders(req), body, signal: controller.signal })
  } catch (error) {
    if (!(error instanceof Refusal)) throw error
    // Unread body bytes would be taken for the next request on this connection: close it.
    if (!req.complete) res.setHeader('Connection', 'close')
    sendRefusal(req, res, error)
    return
  }

  const response = await options.handle(
    request,
    { address: req.socket.remoteAddress, family: req.socket.remoteFamily, port: req.socket.remotePort },
    req,
  )
  await writeResponse(res, response, req.method === 'HEAD')
}

/**
 * The request's URL on the public origin. The target must be a path (or an absolute URL, which
 * HTTP/1.1 allows) and the host a host; anything else is a client error, not an exception.
 */
function requestUrl(req: IncomingMessage, options: Pick<ListenerOptions, 'publicOrigin' | 'trustProxy'>) {
  const method = req.method ?? 'GET'
  if (!METHODS.has(method))
    throw new Refusal(405, 'METHOD_NOT_SUPPORTED', 'Method Not Allowed', { Allow: ALLOW })

  const target = req.url ?? '/'
  let path: string
  if (target.startsWith('/')) {
    path = target
  } else if (/^https?:\/\//i.test(target) && URL.canParse(target)) {
    const absolute = new URL(target)
    path = absolute.pathname + absolute.search
  } else {
    throw new Refusal(400, 'BAD_REQUEST', 'Bad Request: invalid request target')
  }

  const forwarded = options.trustProxy ? forwardedOrigin(req) : {}
  const host = forwarded.host ?? validHost(req.headers.host) ?? options.publicOrigin.host
  const protocol =
    forwarded.protocol ??
    ('encrypted' in req.socket && req.socket.encrypted
      ? 'https:'
      : host === options.publicOrigin.host
        ? options.publicOrigin.protocol
        : 'http:')
  // Concatenated, not resolved: a target of `//other/x` is a path on this host, not another host.
  const href = `${protocol}//${host}${path}`
  if (!URL.canParse(href)) throw new Refusal(400, 'BAD_REQUEST', 'Bad Request: invalid request target')
  return new URL(href)
}

/** A Host header as a URL would hold it, or a refusal; absent (HTTP/1.0) is allowed. */
function validHost(value: string | undefined) {
  if (value === undefined || value === '') return undefined
  const host = value.toLowerCase()
  if (!URL.canParse(`http://${host}`) || new URL(`http://${host}`).host !== stripDefaultPort(host)) {
    throw new Refusal(400, 'BAD_REQUEST', 'Bad Request: invalid Host header')
  }
  return stripDefaultPort(host)
}

function stripDefaultPort(host: string) {
  return host.endsWith(':80') ? host.slice(0, -3) : host
}

/** The first hop's view, as the proxy in front of us reports it. */
function forwardedOrigin(req: IncomingMessage): { protocol?: string; host?: string } {
  const proto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase()
  const protocol = proto === 'https' || proto === 'http' ? `${proto}:` : undefined
  const hostValue = firstValue(req.headers['x-forwarded-host'])
  return { protocol, host: hostValue ? validHost(hostValue) : undefined }
}

function firstValue(header: string | string[] | undefined) {
  const value = Array.isArray(header) ? header[0] : header
  return value?.split(',')[0]?.trim() || undefined
}

function requestHeaders(req: IncomingMessage) {
  const headers = new Headers()
  const raw = req.rawHeaders
  try {
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  } catch {
    throw new Refusal(400, 'BAD_REQUEST', 'Bad Request: invalid header')
  }
  return headers
}

/**
 * Reads the whole body into one buffer, refusing it as soon as it passes the limit: by its
 * Content-Length before a byte is read, or by counting as chunks arrive. Bodies here are small
 * (forms, JSON), so one bounded buffer is simpler and cheaper than a stream, and the app parses it
 * once from there. Past the limit the rest is let through unread (the answer closes the connection).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer> | undefined> {
  const tooLarge = new Refusal(413, 'PAYLOAD_TOO_LARGE', `Payload Too Large: at most ${limit} bytes`)
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure)
      outcome()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) stop(() => reject(tooLarge))
      else chunks.push(chunk)
    }
    const onEnd = () =>
      stop(() => resolve(size === 0 && declared === undefined ? undefined : Buffer.concat(chunks, size)))
    const onFailure = () =>
      stop(() => reject(new Refusal(400, 'BAD_REQUEST', 'Bad Request: the body was cut off')))
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure)
  })
}

/** Streams the response, waiting for the socket to drain so a slow reader never piles it up. */
async function writeResponse(res: ServerResponse, response: Response, isHead: boolean) {
  // Added to what the steps before the app set (security headers, a door's renewed session
  // cookie): writeHead with a list would set each name in turn, keeping only the last cookie.
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') res.appendHeader(name, value)
    else res.setHeader(name, value)
  }
  res.writeHead(response.status, response.statusText)
  if (!response.body || isHead) {
    await response.body?.cancel()
    res.end()
    return
  }
  const reader = response.body.getReader()
  try {
    while (!res.destroyed) {
      const { done, value } = await reader.read()
      if (done) break
      if (!res.write(value)) await Promise.race([once(res, 'drain'), once(res, 'close')])
    }
    res.end()
  } finally {
    // The client left (or writing failed): stop the producer, e.g. an event stream.
    if (res.destroyed) await reader.cancel().catch(() => {})
  }
}

function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal) {
  // The client may be gone already (a body cut off mid-way): nobody to answer.
  if (res.destroyed || res.writableEnded) return
  const isJson = req.url?.startsWith('/api/')
  const body = isJson
    ? JSON.stringify({ code: refusal.code, message: refusal.message })
    : `${refusal.message}\n`
  res.writeHead(refusal.status, {
    ...refusal.headers,
    'Content-Type': isJson ? 'application/json' : 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
}

export type Timeouts = { headersMs: number; requestMs: number; keepAliveMs: number }

/**
 * Limits for clients that send slowly or never finish (Node's defaults let a request take 300 s):
 * headers must arrive within `headersMs` and the whole request within `requestMs` (answered 408);
 * an idle keep-alive connection lives longer than a proxy's idle timeout, so the proxy closes it
 * first. CONNECT, which Node hands to a separate event, is refused like TRACE.
 */
export function hardenServer(server: Server, timeouts: Timeouts) {
  server.headersTimeout = timeouts.headersMs
  server.requestTimeout = timeouts.requestMs
  server.keepAliveTimeout = timeouts.keepAliveMs
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {})
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    )
  })
}
