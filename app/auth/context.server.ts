import { randomBytes } from 'node:crypto'
import { createContext, type RouterContextProvider, redirect } from 'react-router'
import { database } from '~/db/client.server'
import { syncReplicaForMiss } from '~/db/replicas.server'
import { isDatabaseUnavailable } from '~/db/unavailable.server'
import { keepTimeZone } from '~/services/profile.server'
import type { SessionUser } from '~/services/session-user'
import { type ActiveSession, findSession } from '~/services/sessions.server'
import { isTimeZone, TIME_ZONE_COOKIE } from '~/utils/calendar'
import { readCookie, serializeCookie } from '~/utils/cookies.server'
import { currentRequestInfo } from '~/utils/request-info.server'
import { issueCsrfToken } from './csrf.server'
import { catchUpWithOwnWrites } from './own-writes.server'
import { SESSION_COOKIE, sessionCookie } from './session-cookie.server'

export const ANONYMOUS_COOKIE = 'tw_anon'

export type Auth = {
  user: SessionUser | null
  session: ActiveSession | null
  /** What CSRF tokens are bound to: the session, else this browser's anonymous id, if it has one. */
  csrfBinding: string | null
  /** Cookies the response must carry (a renewed session, a new anonymous id). */
  setCookies: string[]
}

const authContext = createContext<Promise<Auth> | null>(null)

/**
 * The request's user, resolved once per request however many loaders ask. On any failure the
 * visitor counts as signed out and 'Auth error' is logged (the spec's rule).
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
  const cookies = request.headers.get('Cookie')
  const { session, setCookies } = await beforeReading(cookies)
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
 * What every request does before it reads: on an embedded replica, catching up with the person's
 * own last write (own-writes.server.ts); then the session behind its cookie, renewed when it is
 * old enough (its cookie then goes out with the answer), and the time zone the browser reports
 * kept when it changed. The one function the root middleware
 * and every door ahead of React Router (server/fast-paths.ts) call, so an expired, revoked or
 * renewed session, and a person's own writes, are treated the same whichever answers. On any
 * failure but an unreachable database the visitor counts as signed out and 'Auth error' is
 * logged (the spec's rule).
 */
export async function beforeReading(cookies: string | null | undefined): Promise<Reader> {
  const droppedPosition = await catchUpWithOwnWrites(cookies)
  const setCookies = droppedPosition ? [droppedPosition] : []
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
 * syncs the replica and is looked up again, rather than signing the person out.
 */
export async function findSessionAnywhere(token: string, db = database()) {
  const session = await findSession(db, token)
  if (session || !(await syncReplicaForMiss(db))) return session
  return findSession(db, token)
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
