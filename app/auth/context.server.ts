import { randomBytes } from 'node:crypto'
import { createContext, type RouterContextProvider, redirect } from 'react-router'
import { database } from '~/db/client.server'
import { isReplica, readFromPrimary, readsFromPrimary, syncReplicaForMiss } from '~/db/replicas.server'
import { isDatabaseUnavailable } from '~/db/unavailable.server'
import { type ApiTokenGrant, authenticateApiToken } from '~/services/api-tokens.server'
import { RateLimited } from '~/services/errors'
import { keepTimeZone } from '~/services/profile.server'
import type { SessionUser, SignedInUser } from '~/services/session-user'
import { type ActiveSession, findSession } from '~/services/sessions.server'
import { isTimeZone, TIME_ZONE_COOKIE } from '~/utils/calendar'
import { readCookie, serializeCookie } from '~/utils/cookies.server'
import { currentRequestInfo } from '~/utils/request-info.server'
import { issueCsrfToken } from './csrf.server'
import { catchUpWithOwnWrites } from './own-writes.server'
import { SESSION_COOKIE, sessionCookie } from './session-cookie.server'

export const ANONYMOUS_COOKIE = 'tw_anon'

export type Auth = {
  /** The signed-in person, with the workspace their session works in; null for a visitor. */
  user: SignedInUser | null
  session: ActiveSession | null
  /** What CSRF tokens are bound to: the session, else this browser's anonymous id, if it has one. */
  csrfBinding: string | null
  /** Cookies the response must carry (a renewed session, a new anonymous id). */
  setCookies: string[]
}

const authContext = createContext<Promise<Auth> | null>(null)

/**
 * The request's user, resolved once per request however many loaders ask. On any failure the
 * visitor counts as signed out and 'Auth error' is logged: a broken session never breaks a page.
 */
export function getAuth(request: Request, context: Readonly<RouterContextProvider>): Promise<Auth> {
  let auth = context.get(authContext)
  if (!auth) {
    auth = resolveAuth(request)
    ;(context as RouterContextProvider).set(authContext, auth)
  }
  return auth
}

async function resolveAuth(request: Request): Promise<Auth> {
  // A program's request: its token speaks for it at the endpoints that take one (`callerOf`), and its
  // cookies are never read, so no page or form is reached through a bearer, nor a session renewed.
  if (bearerTokenOf(request.headers.get('Authorization')) !== null) {
    return { user: null, session: null, csrfBinding: null, setCookies: [] }
  }
  const cookies = request.headers.get('Cookie')
  const { session, setCookies } = await resolveSession(cookies)
  const anonymousId = readCookie(cookies, ANONYMOUS_COOKIE)
  return {
    user: session?.user ?? null,
    session,
    csrfBinding: session ? `session:${session.id}` : anonymousId ? `anonymous:${anonymousId}` : null,
    setCookies,
  }
}

/** Who is asking, as every request finds out before it reads anything. */
export type Reader = {
  session: ActiveSession | null
  /** Cookies the response must carry: the session's, renewed when it was old enough. */
  setCookies: string[]
}

/**
 * The session behind a request's cookies, resolved as every request needs it before it reads, with
 * the three writes that resolving it may bring: on an embedded replica, catching up with the
 * person's own last write (own-writes.server.ts); renewing a session old enough (its cookie then
 * goes out with the answer); keeping the time zone the browser reports when it changed. The one
 * function the root middleware and every door ahead of React Router (server/fast-paths.ts) call,
 * so an expired, revoked or renewed session, and a person's own writes, are treated the same
 * whichever answers. On any failure but an unreachable database the visitor counts as signed out
 * and 'Auth error' is logged.
 */
export async function resolveSession(cookies: string | null | undefined): Promise<Reader> {
  const positionCookie = await catchUpWithOwnWrites(cookies)
  const setCookies = positionCookie ? [positionCookie] : []
  const token = readCookie(cookies ?? null, SESSION_COOKIE)
  if (!token) return { session: null, setCookies }
  let session: ActiveSession | null
  try {
    session = await findSessionAnywhere(token)
    if (session?.isRenewed) setCookies.push(sessionCookie(token))
  } catch (error) {
    // A database out of reach is not a signed-out person: the request answers 503.
    if (isDatabaseUnavailable(error)) throw error
    console.error('Auth error', error)
    return { session: null, setCookies }
  }
  if (session) {
    // Who is signed in, on the request's JSON log lines (only carried when they are on).
    const info = currentRequestInfo()
    if (info) info.userId = session.user.id
    await keepReportedTimeZone(session, cookies)
  }
  return { session, setCookies }
}

/**
 * Stores the zone the browser reports (the `tz` cookie, set by `timeZoneBootScript`) when it
 * differs from the person's stored one, which the session's read brought along: a string
 * comparison per request, a write only when the person's zone changes. A failed write costs the
 * request nothing; the next one tries again.
 */
async function keepReportedTimeZone(session: ActiveSession, cookies: string | null | undefined) {
  const reported = readCookie(cookies ?? null, TIME_ZONE_COOKIE)
  if (!reported || reported === session.timeZone || !isTimeZone(reported)) return
  try {
    await keepTimeZone(database(), session.user.id, reported)
    session.timeZone = reported
  } catch (error) {
    console.error('Time zone not kept', error)
  }
}

/**
 * The session behind a token. On an embedded replica a session made through another instance
 * (sign-in there, then a request load-balanced here) arrives with the next sync: one not found
 * syncs the replica and is looked up again, rather than signing the person out. When that sync
 * fails, the request reads from the primary, which knows every session
 * (docs/decisions/051-a-failed-sync-is-not-an-error.md).
 */
export async function findSessionAnywhere(token: string, db = database()) {
  const session = await findSession(db, token)
  if (session || !isReplica(db) || readsFromPrimary()) return session
  if (await syncReplicaForMiss(db)) return findSession(db, token)
  readFromPrimary()
  return findSession(database(), token)
}

export async function getUser(request: Request, context: Readonly<RouterContextProvider>) {
  return (await getAuth(request, context)).user
}

/**
 * A CSRF token for this visitor. Anonymous visitors get their anonymous id only here, so pages
 * without forms (docs, blog) carry no per-visitor cookie or token and stay cacheable.
 */
export async function csrfTokenFor(request: Request, context: Readonly<RouterContextProvider>) {
  const auth = await getAuth(request, context)
  if (!auth.csrfBinding) {
    const anonymousId = randomBytes(18).toString('base64url')
    auth.csrfBinding = `anonymous:${anonymousId}`
    auth.setCookies.push(
      serializeCookie(ANONYMOUS_COOKIE, anonymousId, { maxAgeSeconds: 60 * 60 * 24 * 365 }),
    )
  }
  return issueCsrfToken(auth.csrfBinding)
}

/** A signed-in user, else a redirect to sign in that comes back here afterwards. */
export async function requireUser(request: Request, context: Readonly<RouterContextProvider>, url?: URL) {
  const auth = await getAuth(request, context)
  if (auth.user && auth.session) return { user: auth.user, session: auth.session }
  const here = url ?? new URL(request.url)
  const target = here.pathname.replace(/\.data$/, '') + here.search
  throw redirect(`/login?${new URLSearchParams({ redirect: target })}`)
}

/** Pages for signed-out visitors (sign in, sign up) send signed-in users on. */
export async function requireAnonymous(
  request: Request,
  context: Readonly<RouterContextProvider>,
  to = '/dashboard',
) {
  if ((await getAuth(request, context)).user) throw redirect(to)
}

// ── Callers of the endpoints programs use: a session or a personal API token

/**
 * Who calls /api/rpc, the event streams or /mcp: a browser's session, or a program's token. A
 * token's scope says what it may do; a session's is null (its mutations prove themselves with
 * the CSRF token instead).
 */
export type Caller = {
  user: SessionUser | null
  /** The session behind the cookie, when a browser calls; streams end with it. */
  session: ActiveSession | null
  token: Pick<ApiTokenGrant, 'tokenId' | 'scope'> | null
  /** The person's stored time zone, null until their browser reported one. */
  timeZone: string | null
  /** Cookies the response must carry (a renewed session). */
  setCookies: string[]
}

/** A caller turned away before any endpoint's own rules: `{code, message}` JSON like every /api/ refusal. */
export type CallerRefusal = { status: number; code: string; message: string; headers: Record<string, string> }

/** The challenge a refused bearer gets (RFC 6750), so a client knows a token is what is asked. */
export const BEARER_CHALLENGE = 'Bearer realm="Threadwork"'
export const BAD_TOKEN_MESSAGE = 'This API token is not valid: it may be mistyped, expired or revoked.'

/** The token of an `Authorization: Bearer <token>` header; '' for a Bearer header without one; else null. */
export function bearerTokenOf(authorization: string | null | undefined): string | null {
  if (!authorization) return null
  const [scheme, token = ''] = authorization.trim().split(/\s+/, 2)
  return scheme?.toLowerCase() === 'bearer' ? token : null
}

/**
 * The one answer to "who is calling" for the endpoints programs use (/api/rpc, the event streams,
 * /mcp), ahead of React Router and through it alike. A request with a bearer token is the
 * token's person, whatever cookies it carries: a bad token is a 401 with `WWW-Authenticate`
 * even beside a good session, and a token past its rate limit a 429 with `Retry-After`. Without
 * one, the session behind the cookie, as `bySession` finds it (the root middleware's memoised
 * lookup through the router, `resolveSession` ahead of it).
 */
export async function identifyCaller(
  authorization: string | null | undefined,
  bySession: () => Promise<{ session: ActiveSession | null; setCookies: string[] }>,
): Promise<Caller | CallerRefusal> {
  const bearer = bearerTokenOf(authorization)
  if (bearer === null) {
    const { session, setCookies } = await bySession()
    return {
      user: session?.user ?? null,
      session,
      token: null,
      timeZone: session?.timeZone ?? null,
      setCookies,
    }
  }
  let grant: ApiTokenGrant | null
  try {
    grant = await authenticateApiToken(database(), bearer)
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error
    return {
      status: 429,
      code: error.code,
      message: error.message,
      headers: { 'Retry-After': String(error.retryAfter), 'Cache-Control': 'no-store' },
    }
  }
  if (!grant) {
    return {
      status: 401,
      code: 'UNAUTHORIZED',
      message: BAD_TOKEN_MESSAGE,
      headers: {
        'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token"`,
        'Cache-Control': 'no-store',
      },
    }
  }
  return {
    user: grant.user,
    session: null,
    token: { tokenId: grant.tokenId, scope: grant.scope },
    timeZone: grant.timeZone,
    setCookies: [],
  }
}

/** `identifyCaller` for a route module of one of those endpoints. */
export function callerOf(request: Request, context: Readonly<RouterContextProvider>) {
  return identifyCaller(request.headers.get('Authorization'), () => getAuth(request, context))
}

export function isCallerRefusal(caller: Caller | CallerRefusal): caller is CallerRefusal {
  return 'status' in caller
}

export function callerRefusalResponse({ status, code, message, headers }: CallerRefusal) {
  return Response.json({ code, message }, { status, headers })
}
