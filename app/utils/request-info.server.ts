import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { createContext } from 'react-router'

/**
 * What the server knows about the request in hand, for its log lines, metrics and spans
 * (docs/decisions/044-metrics-traces-and-structured-logs.md): its id (the client's `X-Request-Id`
 * when it is a safe, short token, else a new one; echoed in the response), the route that answered
 * (the router's matched pattern, or the name of the door ahead of it; never the raw URL), and the
 * signed-in person's id once the session is known.
 */
export type RequestInfo = {
  readonly id: string
  route: string
  userId?: string
}

/** The route of a request nothing named (refused by the request adapter before any route). */
export const UNROUTED = 'unmatched'

/** The request's info, for the router's middleware to name the route it matched. */
export const requestInfoContext = createContext<RequestInfo | null>(null)

const REQUEST_ID = /^[\w.:-]{1,128}$/

/** The client's id when it is a short token of safe characters (it goes into logs), else a new one. */
export function requestIdFrom(header: string | string[] | undefined) {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID()
}

const storage = new AsyncLocalStorage<RequestInfo>()
let isCarried = false

/**
 * Makes the request's info follow its asynchronous work, so a log line written deep in a service
 * names its request. Only JSON logs and traces read it: the default text log does not, and pays
 * nothing (AsyncLocalStorage costs every promise a little), so this is called once at start-up
 * when either is on.
 */
export function carryRequestInfo() {
  isCarried = true
}

export function runWithRequestInfo<T>(info: RequestInfo, run: () => T): T {
  return isCarried ? storage.run(info, run) : run()
}

/** The request whose work is running now, when request info is carried (JSON logs or traces). */
export function currentRequestInfo(): RequestInfo | undefined {
  return isCarried ? storage.getStore() : undefined
}
