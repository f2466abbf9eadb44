import { createORPCClient } from '@orpc/client'
import { RPCLink } from '@orpc/client/fetch'
import type { RouterClient } from '@orpc/server'
import { RouterContextProvider } from 'react-router'
import { action, loader } from '~/routes/api/rpc'
import { RPC_PREFIX } from '~/rpc/handler.server'
import type { Router } from '~/rpc/router.server'
import type { TestBrowser } from './auth'
import { serveFetch, type TestServer } from './http-server'

/**
 * Helpers for the /api/rpc endpoint. Build raw oRPC-protocol requests with `rpcRequest` to assert
 * statuses and bodies, or start the endpoint on a real port with `startRpcServer` and talk to it
 * with `@orpc/client` exactly as a browser or another service would.
 */

export type RpcClient = RouterClient<Router>

/** A request in oRPC's RPC protocol: POST with `{ json }`, or GET with `?data=` for reads. */
export function rpcRequest(
  procedure: string,
  input?: unknown,
  options: { method?: 'GET' | 'POST'; headers?: HeadersInit; origin?: string } = {},
): Request {
  const url = new URL(`${RPC_PREFIX}/${procedure}`, options.origin ?? 'http://localhost')
  const headers = new Headers(options.headers)
  const payload = JSON.stringify({ json: input })
  if (options.method === 'GET') {
    if (input !== undefined) url.searchParams.set('data', payload)
    return new Request(url, { headers })
  }
  headers.set('Content-Type', 'application/json')
  return new Request(url, { method: 'POST', headers, body: payload })
}

/** The `json` part of an oRPC response body: a procedure's output, or its error. */
export async function readRpcJson(response: Response): Promise<unknown> {
  const body = (await response.json()) as { json?: unknown }
  return body.json
}

/** Sends a request through the app's /api/rpc route module, as the server would. */
export function answerThroughRpcRoute(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const args = {
    request,
    url,
    params: { '*': url.pathname.slice(`${RPC_PREFIX}/`.length) },
    context: new RouterContextProvider(),
    pattern: `${RPC_PREFIX}/*`,
  }
  return request.method === 'GET' || request.method === 'HEAD' ? loader(args) : action(args)
}

/**
 * A typed client that sends each call through the /api/rpc route module in this process, as
 * `@orpc/client` would over HTTP (a browser's cookie in `headers`), without a port: for tests
 * that make many calls. Reads go by GET unless told otherwise.
 */
export function inProcessRpcClient({
  method = 'GET',
  headers,
}: {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
} = {}): RpcClient {
  return createORPCClient<RpcClient>(
    new RPCLink({
      url: `http://localhost${RPC_PREFIX}`,
      method,
      headers,
      fetch: (request) => answerThroughRpcRoute(request),
    }),
  )
}

export type RpcServer = TestServer & {
  /** A typed client over HTTP; `method: 'GET'` sends every call as a GET, as reads may be. */
  client: (options?: { method?: 'GET' | 'POST'; headers?: Record<string, string> }) => RpcClient
  /** A client as this browser's page would use it: its cookie, and its CSRF token unless told not to. */
  clientAs: (browser: TestBrowser, options?: { withCsrf?: boolean; method?: 'GET' | 'POST' }) => RpcClient
  /** Every request the server received, in order, to assert what went over the wire. */
  requests: { method: string; url: string }[]
}

/** The /api/rpc endpoint on a free port, in this process, with this test file's database. */
export async function startRpcServer(): Promise<RpcServer> {
  const requests: RpcServer['requests'] = []
  const server = await serveFetch((request) => {
    requests.push({ method: request.method, url: request.url })
    return answerThroughRpcRoute(request)
  })
  const client: RpcServer['client'] = ({ method = 'POST', headers } = {}) =>
    createORPCClient<RpcClient>(new RPCLink({ url: `${server.origin}${RPC_PREFIX}`, method, headers }))
  return {
    ...server,
    requests,
    client,
    clientAs: (browser, { withCsrf = true, method } = {}) => {
      const headers: Record<string, string> = { cookie: browser.cookie }
      if (withCsrf) headers['x-csrf-token'] = browser.csrf
      return client({ headers, method })
    },
  }
}

/** 'task.getAll' for router.task.getAll: oRPC procedures carry a '~orpc' definition. */
export function procedureNames(node: object, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key
    if (typeof value !== 'object' || value === null) return []
    return '~orpc' in value ? [name] : procedureNames(value, name)
  })
}
