import { RouterContextProvider } from 'react-router'
import { clientAddressContext } from '~/auth/client-ip.server'
import { ANONYMOUS_COOKIE } from '~/auth/context.server'
import { CSRF_FIELD, CSRF_HEADER, issueCsrfToken } from '~/auth/csrf.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import type { Database } from '~/db/client.server'
import { middleware } from '~/root'
import { createSession, type SessionMeta } from '~/services/sessions.server'
import { buildRequest, type RequestOptions } from './route'

/**
 * Browsers for account tests: who is signed in (a real session row and its cookie), the CSRF
 * token their pages would carry, and a way through the root middleware, so a test sees a POST the
 * way the server does (CSRF and Origin checked first) instead of calling an action around it.
 */

export type TestBrowser = {
  /** The `Cookie` header this browser sends. */
  cookie: string
  /** A valid CSRF token for this browser (bound to its session, else its anonymous id). */
  csrf: string
  /** Headers for a request from this browser, with or without its token. */
  headers: (options?: { withCsrf?: boolean; extra?: HeadersInit }) => Headers
  /** A form body with the hidden CSRF field a page's <Form> would add. */
  form: (fields: Record<string, string>) => Record<string, string>
}

function browserWith(cookie: string, csrf: string): TestBrowser {
  return {
    cookie,
    csrf,
    headers: ({ withCsrf = true, extra } = {}) => {
      const headers = new Headers(extra)
      headers.set('Cookie', cookie)
      if (withCsrf) headers.set(CSRF_HEADER, csrf)
      return headers
    },
    form: (fields) => ({ [CSRF_FIELD]: csrf, ...fields }),
  }
}

let anonymousSequence = 0

/** A visitor who has loaded a page with a form: an anonymous id cookie and a token bound to it. */
export function anonymousBrowser(): TestBrowser {
  anonymousSequence += 1
  const id = `anon-${anonymousSequence}-${Math.random().toString(36).slice(2)}`
  return browserWith(`${ANONYMOUS_COOKIE}=${id}`, issueCsrfToken(`anonymous:${id}`))
}

/** A browser signed in as `userId` through a real session row. */
export async function signedInBrowser(db: Database, userId: string, meta: SessionMeta = {}) {
  const session = await createSession(db, userId, meta)
  return {
    ...browserWith(
      `${SESSION_COOKIE}=${encodeURIComponent(session.token)}`,
      issueCsrfToken(`session:${session.id}`),
    ),
    session,
  }
}

let ipSequence = 0
/** A router context with a client address of its own, so per-IP rate limits never cross tests. */
export function clientContext(ip?: string) {
  ipSequence += 1
  const context = new RouterContextProvider()
  context.set(clientAddressContext, ip ?? `198.51.100.${ipSequence}`)
  return context
}

/** The `tw_session` value a response set, or undefined (a cleared cookie reads as ''). */
export function sessionCookieOf(headers: Headers): string | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE}=`))
  if (cookie === undefined) return undefined
  return decodeURIComponent(cookie.split(';')[0]?.slice(SESSION_COOKIE.length + 1) ?? '')
}

/** The attributes of one Set-Cookie, lower-cased names: `{ 'max-age': '0', httponly: '' }`. */
export function cookieAttributes(headers: Headers, name: string): Record<string, string> | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith(`${name}=`))
  if (cookie === undefined) return undefined
  return Object.fromEntries(
    cookie
      .split(';')
      .slice(1)
      .map((part) => {
        const [key = '', ...value] = part.trim().split('=')
        return [key.toLowerCase(), value.join('=')]
      }),
  )
}

type Handler = (args: never) => unknown

export type MiddlewareResult = {
  status: number
  headers: Headers
  /** JSON bodies parsed, others as text; a `data()` payload as is. */
  body: unknown
  location: string | null
  /** Whether the route's loader or action ran at all (a refused request never reaches it). */
  handled: boolean
}

/** The arguments React Router hands a loader, an action and the middleware. */
export type DataFunctionArgs = {
  request: Request
  url: URL
  params: Record<string, string>
  context: RouterContextProvider
  pattern: string
}

/**
 * Runs a request through the root route's middleware and then `handler` (a loader or action),
 * as React Router does, and answers the Response the server would send: whatever the handler
 * returns or throws becomes the response `next()` gives back, and whatever the middleware throws
 * is the answer. An Error thrown anywhere is rethrown, as it would be a 500.
 */
export async function respondThroughMiddleware(
  handler: Handler,
  args: DataFunctionArgs,
  onHandled: () => void = () => {},
): Promise<Response> {
  const run = async (index: number): Promise<Response> => {
    const step = middleware[index]
    if (!step) {
      onHandled()
      try {
        return toResponse(await handler(args as never))
      } catch (thrown) {
        return toResponse(thrown, true)
      }
    }
    const response = await step(args as never, () => run(index + 1))
    if (!(response instanceof Response)) throw new Error('The middleware answered nothing')
    return response
  }
  try {
    return await run(0)
  } catch (thrown) {
    return toResponse(thrown, true)
  }
}

/** `respondThroughMiddleware` for a request built from options, with the answer read. */
export async function callThroughMiddleware(
  handler: Handler,
  options: RequestOptions & { params?: Record<string, string>; context?: RouterContextProvider } = {},
  defaultMethod = 'POST',
): Promise<MiddlewareResult> {
  const request = buildRequest(options, defaultMethod)
  const args = {
    request,
    url: new URL(request.url),
    params: options.params ?? {},
    context: options.context ?? clientContext(),
    pattern: '',
  }
  let handled = false
  const response = await respondThroughMiddleware(handler, args, () => {
    handled = true
  })
  const text = await response.text()
  const type = response.headers.get('Content-Type') ?? ''
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? null : type.includes('json') ? JSON.parse(text) : text,
    location: response.headers.get('Location'),
    handled,
  }
}

function toResponse(value: unknown, thrown = false): Response {
  if (value instanceof Response) return value
  if (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    value.type === 'DataWithResponseInit'
  ) {
    const { data, init } = value as unknown as { data: unknown; init: ResponseInit | null }
    // React Router answers a thrown data() without a status with 500, as a returned one with 200.
    return Response.json(data, { ...init, status: init?.status ?? (thrown ? 500 : 200) })
  }
  if (value instanceof Error) throw value
  return Response.json(value)
}
