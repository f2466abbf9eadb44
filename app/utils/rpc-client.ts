import { ORPCError } from '@orpc/client'
import { RPCLink } from '@orpc/client/fetch'

/**
 * Calls to /api/rpc from the page, for what polls or fires outside a form (mentions, the live
 * comment list). They go through `@orpc/client`'s own RPCLink, so the wire format is exactly the
 * one the server speaks (`?data=` for GET, `{json, meta}` both ways, oRPC errors with their code).
 * A procedure is named by its path: `comments/getComments` (or `comments.getComments`).
 */

export const RPC_PATH = '/api/rpc'

/** Sent back with every mutation (DESIGN.md §6.2); the page has it from the root loader. */
export const CSRF_HEADER = 'x-csrf-token'

type CallOptions = { signal?: AbortSignal }

function link(method: 'GET' | 'POST', headers: Record<string, string>, cache: RequestCache) {
  return new RPCLink({
    url: () => new URL(RPC_PATH, globalThis.location.origin),
    method,
    headers,
    fetch: (request, init) => fetch(request, { ...init, cache, credentials: 'same-origin' }),
  })
}

function call<T>(
  method: 'GET' | 'POST',
  path: string,
  input: unknown,
  headers: Record<string, string>,
  signal?: AbortSignal,
) {
  // `no-cache` for reads: the browser keeps the last answer and revalidates it with
  // If-None-Match, so an unchanged poll costs a bodiless 304 and still reads as the stored body.
  const cache = method === 'GET' ? 'no-cache' : 'no-store'
  return link(method, headers, cache).call(path.split(/[./]/), input, { context: {}, signal }) as Promise<T>
}

/**
 * A read procedure by GET. Too long an input for a URL (2083 characters) goes by POST instead,
 * as RPCLink does; reads need no CSRF token either way.
 */
export function fetchRpc<T>(path: string, input?: unknown, options: CallOptions = {}): Promise<T> {
  return call<T>('GET', path, input, {}, options.signal)
}

/**
 * A mutation by POST with the page's CSRF token. A token outlives neither its hour nor a new
 * session; a page left open that long gets a fresh one from /api/csrf and tries once more.
 */
export async function postRpc<T>(
  path: string,
  input: unknown,
  options: CallOptions & { csrfToken: string },
): Promise<T> {
  try {
    return await call<T>('POST', path, input, { [CSRF_HEADER]: options.csrfToken }, options.signal)
  } catch (error) {
    if (!isInvalidCsrf(error)) throw error
    const csrfToken = await freshCsrfToken(options.signal)
    return call<T>('POST', path, input, { [CSRF_HEADER]: csrfToken }, options.signal)
  }
}

function isInvalidCsrf(error: unknown) {
  return error instanceof ORPCError && error.status === 403 && error.message === 'Invalid CSRF token'
}

async function freshCsrfToken(signal?: AbortSignal): Promise<string> {
  const response = await fetch(new URL('/api/csrf', globalThis.location.origin), {
    cache: 'no-store',
    credentials: 'same-origin',
    signal,
  })
  if (!response.ok) throw new Error(`GET /api/csrf answered ${response.status}`)
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return csrfToken
}
