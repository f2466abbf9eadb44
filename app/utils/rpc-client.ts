import { createORPCErrorFromJson, isORPCErrorJson, ORPCError } from '@orpc/client'
import { getMalformedResponseErrorCode, StandardRPCJsonSerializer } from '@orpc/client/standard'
import type { AnyProcedure, InferRouterInputs, InferRouterOutputs } from '@orpc/server'
import type { Router } from '~/rpc/router.server'

/**
 * Calls to /api/rpc from the page, for what polls or fires outside a form (mentions, the live
 * comment list). The wire format is oRPC's RPC protocol as `@orpc/client`'s RPCLink speaks it —
 * a read by GET with `?data=<{json, meta}>`, anything else POSTed as `{json, meta}`, answers
 * decoded from `{json, meta}`, failures thrown as `ORPCError` with their code and status — built
 * on oRPC's own serializer, without the link machinery a poller never uses (about 3 KB of gzip
 * instead of 8 on every page). A procedure is named by its path: `comments/getComments` (or
 * `comments.getComments`), and its input and output types are the router's own. They come from a
 * type-only import of the router, which the build erases: no server code reaches the page.
 */

const RPC_PATH = '/api/rpc'

/** Sent with every mutation (docs/product-rules.md §5); the page has it from the root loader. */
const CSRF_HEADER = 'x-csrf-token'

/** RPCLink's limit: a longer GET goes as a POST instead. */
const MAX_URL_LENGTH = 2083

const serializer = new StandardRPCJsonSerializer()

type CallOptions = { signal?: AbortSignal }

/** Every procedure's path: 'healthCheck', 'task/get', 'comments/getComments', … */
type PathsOf<T> = {
  [K in keyof T & string]: T[K] extends AnyProcedure ? K : `${K}/${PathsOf<T[K]>}`
}[keyof T & string]
type Dotted<P extends string> = P extends `${infer Head}/${infer Rest}` ? `${Head}.${Dotted<Rest>}` : P
type Slashed<P extends string> = P extends `${infer Head}.${infer Rest}` ? `${Head}/${Slashed<Rest>}` : P
type At<T, P extends string> = P extends `${infer Head}/${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never

export type ProcedurePath = PathsOf<Router> | Dotted<PathsOf<Router>>
export type RpcInput<P extends ProcedurePath> = At<InferRouterInputs<Router>, Slashed<P>>
export type RpcOutput<P extends ProcedurePath> = At<InferRouterOutputs<Router>, Slashed<P>>

/** The input, which a procedure that takes none lets the caller leave out. */
type ReadArgs<P extends ProcedurePath> =
  undefined extends RpcInput<P>
    ? [input?: RpcInput<P>, options?: CallOptions]
    : [input: RpcInput<P>, options?: CallOptions]
type Serialized = { json?: unknown; meta?: Parameters<StandardRPCJsonSerializer['deserialize']>[1] }

function encode(input: unknown): string {
  const [json, meta] = serializer.serialize(input)
  return JSON.stringify({ json, meta: meta.length > 0 ? meta : undefined })
}

async function decode<T>(response: Response): Promise<T> {
  let body: Serialized | undefined
  try {
    const text = await response.text()
    body = text ? (JSON.parse(text) as Serialized) : undefined
  } catch (error) {
    if (response.ok) throw new Error('Invalid RPC response format.', { cause: error })
  }
  const value = body === undefined ? undefined : serializer.deserialize(body.json, body.meta ?? [])
  if (response.ok) return value as T
  if (isORPCErrorJson(value)) throw createORPCErrorFromJson(value)
  // Not oRPC's error shape (a proxy's error page, the endpoint's 404): its status still says what failed.
  throw new ORPCError(getMalformedResponseErrorCode(response.status), {
    status: response.status,
    data: value,
  })
}

async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  input: unknown,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const procedure = path.split(/[./]/).map(encodeURIComponent).join('/')
  const url = new URL(`${RPC_PATH}/${procedure}`, globalThis.location.origin)
  const payload = encode(input)
  if (method === 'GET') {
    url.searchParams.set('data', payload)
    if (url.href.length <= MAX_URL_LENGTH) {
      // `no-cache`: the browser keeps the last answer and revalidates it with If-None-Match, so
      // an unchanged poll costs a bodiless 304 and still reads here as the stored body.
      return decode(await fetch(url, { headers, cache: 'no-cache', credentials: 'same-origin', signal }))
    }
    url.search = ''
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: payload,
    cache: 'no-store',
    credentials: 'same-origin',
    signal,
  })
  return decode(response)
}

/** A read procedure by GET (by POST if its input makes the URL too long; reads need no token). */
export function fetchRpc<P extends ProcedurePath>(
  path: P,
  ...[input, options = {}]: ReadArgs<P>
): Promise<RpcOutput<P>> {
  return call<RpcOutput<P>>('GET', path, input, {}, options.signal)
}

/**
 * A mutation by POST with the page's CSRF token. A token outlives neither its hour nor a new
 * session; a page left open that long gets a fresh one from /api/csrf and tries once more.
 */
export async function postRpc<P extends ProcedurePath>(
  path: P,
  input: RpcInput<P>,
  options: CallOptions & { csrfToken: string },
): Promise<RpcOutput<P>> {
  try {
    return await call<RpcOutput<P>>('POST', path, input, { [CSRF_HEADER]: options.csrfToken }, options.signal)
  } catch (error) {
    if (!isInvalidCsrf(error)) throw error
    const csrfToken = await freshCsrfToken(options.signal)
    return call<RpcOutput<P>>('POST', path, input, { [CSRF_HEADER]: csrfToken }, options.signal)
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
