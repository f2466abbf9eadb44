import { type UNSAFE_DataWithResponseInit as DataWithResponseInit, RouterContextProvider } from 'react-router'

/**
 * Calls a route module's loader or action the way the server would — with a real `Request` and
 * the v8 arguments (`request`, `url`, `params`, `context`, `pattern`) — and reads the outcome the
 * way a client would see it: a status, headers and a body, whether the function returned or
 * threw `data()`, a `Response`, a redirect, or a plain value.
 *
 *   const { status, data } = await callLoader(loader, { url: '/tss' })
 *   const { status, location, headers } = await callAction(action, {
 *     url: '/resources/theme',
 *     form: { theme: 'dark', redirectTo: '/docs' },
 *   })
 *
 * Calling a loader directly skips route middleware, as React Router's own docs recommend for
 * unit tests; anything a loader needs from middleware goes into `context`.
 */

/** The origin of every request a test builds from a path. Same-origin checks compare with it. */
export const TEST_ORIGIN = 'http://localhost'

export type RequestOptions = {
  /** A path on TEST_ORIGIN ('/tss?x=1') or an absolute URL. Defaults to '/'. */
  url?: string
  /** Defaults to GET for loaders and POST for actions. */
  method?: string
  headers?: HeadersInit
  /** A form post: a plain object is URL-encoded (arrays repeat the name); FormData goes as multipart. */
  form?: Record<string, string | string[]> | URLSearchParams | FormData
  /** A JSON body, sent with `Content-Type: application/json`. */
  json?: unknown
  /** Any other body, sent as is. */
  body?: BodyInit
}

// Loaders take their own `Route.LoaderArgs`; `never` accepts every such function.
type DataFunction = (args: never) => unknown
type ArgsOf<F> = F extends (args: infer A) => unknown ? A : never
type ParamsOf<F> = ArgsOf<F> extends { params: infer P } ? P : Record<string, string | undefined>

export type CallOptions<F extends DataFunction> = RequestOptions & {
  /** The route's URL params, typed from its `Route.LoaderArgs`. */
  params?: ParamsOf<F>
  /** What middleware or the server would have put in context (e.g. `nonceContext`). */
  context?: RouterContextProvider
  /** The matched route pattern ('/tasks/:id'), for code that logs it. */
  pattern?: string
}

type Unwrap<T> = T extends DataWithResponseInit<infer D> ? D : T

/**
 * The body type a test can rely on: what the function returns through `data()` or as a plain
 * value. A `Response` body is parsed at run time but cannot be typed, so it reads as `unknown`.
 */
export type RouteData<F extends DataFunction> = [Exclude<Awaited<ReturnType<F>>, Response>] extends [never]
  ? unknown
  : Unwrap<Exclude<Awaited<ReturnType<F>>, Response>>

export type RouteResult<D> = {
  /** The HTTP status the client would get: 200 for plain values, a thrown `data()` without one is 500. */
  status: number
  headers: Headers
  /**
   * The body: `data()`'s payload, a plain return value, or a `Response` body (JSON parsed, else
   * text, null when empty). When `thrown` is true it is whatever was thrown, so treat its type
   * as a convenience for the success path only.
   */
  data: D
  /** True when the function threw a `Response` or `data()` (error boundaries, redirects). */
  thrown: boolean
  /** The `Location` header of a redirect, else null. */
  location: string | null
}

export function callLoader<F extends DataFunction>(
  loader: F,
  options: CallOptions<F> = {},
): Promise<RouteResult<RouteData<F>>> {
  return call(loader, options, 'GET')
}

export function callAction<F extends DataFunction>(
  action: F,
  options: CallOptions<F> = {},
): Promise<RouteResult<RouteData<F>>> {
  return call(action, options, 'POST')
}

/** A real `Request` as a browser or API client would send it. */
export function buildRequest(options: RequestOptions = {}, defaultMethod = 'GET'): Request {
  const url = new URL(options.url ?? '/', TEST_ORIGIN)
  const method = (options.method ?? defaultMethod).toUpperCase()
  const headers = new Headers(options.headers)
  let body: BodyInit | undefined = options.body

  if (options.form !== undefined) {
    body = options.form instanceof FormData ? options.form : toSearchParams(options.form)
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
  }
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new Error(`buildRequest: a ${method} request cannot carry a body; put the values in the URL`)
  }
  return new Request(url, { method, headers, body })
}

async function call<F extends DataFunction>(
  fn: F,
  options: CallOptions<F>,
  defaultMethod: string,
): Promise<RouteResult<RouteData<F>>> {
  const request = buildRequest(options, defaultMethod)
  const args = {
    request,
    url: new URL(request.url),
    params: options.params ?? {},
    context: options.context ?? new RouterContextProvider(),
    pattern: options.pattern ?? '',
  }
  let outcome: { value: unknown; thrown: boolean }
  try {
    outcome = { value: await fn(args as never), thrown: false }
  } catch (error) {
    outcome = { value: error, thrown: true }
  }
  return (await toResult(outcome.value, outcome.thrown)) as RouteResult<RouteData<F>>
}

async function toResult(value: unknown, thrown: boolean): Promise<RouteResult<unknown>> {
  if (value instanceof Response) {
    return {
      status: value.status,
      headers: value.headers,
      data: await readBody(value),
      thrown,
      location: value.headers.get('Location'),
    }
  }
  if (isDataWithResponseInit(value)) {
    const headers = new Headers(value.init?.headers)
    return {
      // React Router answers a thrown `data()` without a status with 500.
      status: value.init?.status ?? (thrown ? 500 : 200),
      headers,
      data: value.data,
      thrown,
      location: headers.get('Location'),
    }
  }
  // A thrown Error is a bug in the code under test, not an answer: let the test fail with it.
  if (thrown) throw value
  return { status: 200, headers: new Headers(), data: value, thrown: false, location: null }
}

// React Router exports the class as a type only and recognises `data()` by its shape; so do we.
function isDataWithResponseInit(value: unknown): value is DataWithResponseInit<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    value.type === 'DataWithResponseInit' &&
    'data' in value &&
    'init' in value
  )
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return null
  const type = response.headers.get('Content-Type') ?? ''
  return /\bapplication\/(?:[\w.+-]+\+)?json\b/.test(type) ? JSON.parse(text) : text
}

function toSearchParams(form: Record<string, string | string[]> | URLSearchParams) {
  if (form instanceof URLSearchParams) return form
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(form)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item)
  }
  return params
}

/**
 * The `Cookie` header a browser would send back after these `Set-Cookie`s, so a test can carry a
 * cookie from one call to the next (a flash toast, later a session). Expired cookies are dropped.
 */
export function cookieHeaderFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => {
      const value = pair.slice(pair.indexOf('=') + 1)
      return pair.includes('=') && value !== ''
    })
    .join('; ')
}
