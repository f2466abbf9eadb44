import type { RouterContextProvider } from 'react-router'

/**
 * When the database cannot be reached — a libSQL server that is down, restarting or out of reach,
 * or the primary an embedded replica forwards its writes to — a request cannot be served, but it
 * is not the app's fault and it will pass again shortly. Such requests answer 503 with
 * Retry-After, fast (client.server.ts bounds every remote call), rather than a 500 or a hang.
 */

/** What a 503 tells the client to wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 5
export const UNAVAILABLE_MESSAGE =
  'The database cannot be reached right now. Please try again in a few seconds.'

/** Error codes of the network under fetch and of the HTTP client's own failures. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'HRANA_WEBSOCKET_ERROR',
  'HRANA_CLOSED_ERROR',
  'SERVER_ERROR',
])

/**
 * The embedded replica's driver reports a primary it cannot reach in its message only:
 * `WriteDelegation(status: Unavailable, …)` for a forwarded write, `Replication(…)` for a sync.
 */
const REPLICA_UNREACHABLE = /WriteDelegation\(status: (Unavailable|DeadlineExceeded)|Replication\(/

/**
 * Whether an error, or any error it was caused by, says the database could not be reached, or
 * stayed locked by other writers for longer than a request waits.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; depth++) {
    if (cause.name === 'TimeoutError') return true
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
    // Still locked by other writers after the busy timeout (or a batch's retries): the same
    // advice holds, try again shortly.
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true
    if (REPLICA_UNREACHABLE.test(cause.message)) return true
    cause = cause.cause
  }
  return false
}

const unavailable = new WeakSet<RouterContextProvider>()

/** Notes that a loader, action or middleware of this request failed to reach the database. */
export function markUnavailable(context: RouterContextProvider) {
  unavailable.add(context)
}

export function wasUnavailable(context: RouterContextProvider) {
  return unavailable.has(context)
}

/**
 * The one log line of a request the database could not serve, whichever way it was answered (the
 * router's `handleError`, or a door ahead of it, server/fast-paths.ts).
 */
export function logUnavailable(method: string | undefined, pathname: string) {
  console.error(`${method} ${pathname}: the database cannot be reached`)
}

/** The 503: `{code, message}` JSON under /api/ as every JSON endpoint answers, a line of text elsewhere. */
export function unavailableResponse(request: Request) {
  const headers = { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' }
  if (new URL(request.url).pathname.startsWith('/api/')) {
    return Response.json(
      { code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE },
      { status: 503, headers },
    )
  }
  return new Response(UNAVAILABLE_MESSAGE, {
    status: 503,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  })
}
