import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  type Caller,
  type CallerRefusal,
  identifyCaller,
  isCallerRefusal,
  resolveSession,
} from '~/auth/context.server'
import { asReadByThisRequest, type Database, database } from '~/db/client.server'
import {
  isDatabaseUnavailable,
  logUnavailable,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
} from '~/db/unavailable.server'
import { env } from '~/env.server'
import { liveApiTokenIds } from '~/services/api-tokens.server'
import { NotFound } from '~/services/errors'
import { liveSessionIds } from '~/services/sessions.server'
import { getTask } from '~/services/tasks/reads.server'
import { eventStreamSubscribers } from '~/utils/metrics.server'
import { createBroadcaster } from './broadcaster.server'
import { type EventSink, EventStream, ResponseEventStream } from './event-stream.server'
import { commentFeed, type Feed, follow, taskFeed } from './feeds.server'

/**
 * The two event streams, `GET /api/events/tasks` and `GET /api/events/comments?taskId=`. They are
 * served two ways from one set of rules: `handle`, a node:http step ahead of React Router (a
 * stream through the router's Request and ReadableStream costs about twice the memory per
 * subscriber and misses the fan-out goal, docs/decisions/023-event-streams-ahead-of-the-router.md),
 * and `respond`, for the route module (app/routes/api/events.ts) that serves them with
 * `FAST_PATHS=off` and under `npm run dev` (server/fast-paths.ts). Both take the session from
 * `resolveSession`, the root middleware's own lookup, and refuse in the same words.
 */

/** How long a client waits before reconnecting: 3 s for tasks, 5 s for comments (docs/product-rules.md §3). */
const TASKS_RETRY_MS = 3000
const COMMENTS_RETRY_MS = 5000
/** A comment line this often keeps idle connections and proxies open (5 s, docs/product-rules.md §3). */
const KEEP_ALIVE_MS = 5000
/**
 * How often open streams look their sessions up again: a session revoked elsewhere (signed out,
 * "sign out other sessions", a new password, a deleted account) ends its streams within this.
 */
const SESSION_CHECK_MS = 15_000

const CURSOR = /^\d{1,15}$/
const TASK_ID = /^[\w-]{1,64}$/

const STREAM_PATHS = ['/api/events/tasks', '/api/events/comments']

type Refusal = { status: number; code: string; message: string; headers?: Record<string, string> }
/** What a stream request gets: the feed it follows, or why it may not have one. */
type Opening = { feed: Feed; sessionId?: string; tokenId?: string; resumeAfter: number | null } | Refusal

export type EventStreams = ReturnType<typeof createEventStreams>

export function createEventStreams(
  db: Database,
  {
    broadcaster = createBroadcaster(db, { pollMs: env().EVENT_STREAM_POLL_MS }),
    keepAliveMs = KEEP_ALIVE_MS,
    sessionCheckMs = SESSION_CHECK_MS,
  } = {},
) {
  const open = new Set<EventSink>()
  /** The session each signed-in stream was opened with; anonymous streams have none. */
  const sessionOf = new Map<EventSink, string>()
  /** The personal API token each stream a program opened was opened with. */
  const tokenOf = new Map<EventSink, string>()
  let keepAlive: ReturnType<typeof setInterval> | undefined
  let sessionCheck: ReturnType<typeof setInterval> | undefined

  function track(stream: EventSink, sessionId: string | undefined, tokenId: string | undefined) {
    open.add(stream)
    eventStreamSubscribers.set(open.size)
    if (sessionId) sessionOf.set(stream, sessionId)
    if (tokenId) tokenOf.set(stream, tokenId)
    keepAlive ??= setInterval(() => {
      for (const each of open) each.keepAlive()
    }, keepAliveMs).unref()
    sessionCheck ??= setInterval(endStreamsOfEndedSessions, sessionCheckMs).unref()
  }

  function untrack(stream: EventSink) {
    open.delete(stream)
    eventStreamSubscribers.set(open.size)
    sessionOf.delete(stream)
    tokenOf.delete(stream)
    if (open.size === 0) {
      clearInterval(keepAlive)
      clearInterval(sessionCheck)
      keepAlive = undefined
      sessionCheck = undefined
    }
  }

  let isCheckingSessions = false

  /**
   * Ends the streams whose session is gone, in one query per 500 sessions however many streams
   * are open. The browser reconnects, is refused with a 401, and stops hearing anything.
   */
  async function endStreamsOfEndedSessions() {
    if (isCheckingSessions || (sessionOf.size === 0 && tokenOf.size === 0)) return
    isCheckingSessions = true
    try {
      const live = await liveSessionIds(db, [...new Set(sessionOf.values())])
      for (const [stream, sessionId] of sessionOf) if (!live.has(sessionId)) stream.end()
      // A revoked or expired token, or its account deleted, ends its streams the same way.
      const liveTokens = await liveApiTokenIds(db, [...new Set(tokenOf.values())])
      for (const [stream, tokenId] of tokenOf) if (!liveTokens.has(tokenId)) stream.end()
    } catch (error) {
      // The database is down or busy: the streams stay until the next check can look.
      console.error(
        'Event stream session check failed',
        isDatabaseUnavailable(error) ? UNAVAILABLE_MESSAGE : error,
      )
    } finally {
      isCheckingSessions = false
    }
  }

  let isClosing = false

  /** The feed a request asks for, in the order every stream request is refused. */
  async function openingFor(
    url: URL,
    lastEventId: string | null,
    { user, session, token }: Pick<Caller, 'user' | 'session' | 'token'>,
  ): Promise<Opening> {
    if (isClosing) {
      // Stopping: the client's EventSource gives up on this answer, and the page reconnects to
      // another instance (or this one restarted) after its back-off.
      return {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'This server is stopping',
        headers: { 'Retry-After': '1' },
      }
    }
    const resumeAfter = resumeCursor(lastEventId, url)
    if (resumeAfter === undefined) {
      return { status: 400, code: 'BAD_REQUEST', message: 'Last-Event-ID and after must be event ids' }
    }
    if (url.pathname === '/api/events/tasks') {
      return user
        ? { feed: taskFeed(user), sessionId: session?.id, tokenId: token?.tokenId, resumeAfter }
        : { status: 401, code: 'UNAUTHORIZED', message: 'You need to sign in to do that.' }
    }
    const taskId = url.searchParams.get('taskId') ?? ''
    if (!TASK_ID.test(taskId)) return { status: 400, code: 'BAD_REQUEST', message: 'taskId is required' }
    try {
      // The task the person just made may be on the primary only (docs/decisions/051-a-failed-sync-is-not-an-error.md).
      await getTask(asReadByThisRequest(db), user, taskId)
    } catch (error) {
      if (error instanceof NotFound) return { status: 404, code: 'NOT_FOUND', message: error.message }
      throw error
    }
    return { feed: commentFeed(user, taskId), sessionId: session?.id, tokenId: token?.tokenId, resumeAfter }
  }

  /** Follows an opened feed on `stream` until it ends or the client leaves. */
  async function run(
    stream: EventSink,
    opening: Exclude<Opening, Refusal>,
    onClose: (end: () => void) => void,
  ) {
    track(stream, opening.sessionId, opening.tokenId)
    let unsubscribe: (() => void) | undefined
    onClose(() => {
      untrack(stream)
      unsubscribe?.()
    })
    unsubscribe = await follow(db, broadcaster, stream, opening.feed, opening.resumeAfter)
    if (stream.isClosed) unsubscribe()
  }

  /** The node:http door: the session as the root middleware finds it, then the stream on `res`. */
  async function serve(req: IncomingMessage, res: ServerResponse, url: URL) {
    // Listening from the start: a client may leave while its session is being looked up.
    const stream = new EventStream(res, { retryMs: retryFor(url) })
    const caller = await identifyCaller(req.headers.authorization, () => resolveSession(req.headers.cookie))
    if (isCallerRefusal(caller)) return refuse(res, caller)
    const opening = await openingFor(url, lastEventIdOf(req.headers['last-event-id']), caller)
    if (stream.isClosed) return
    if ('status' in opening) return refuse(res, opening, caller.setCookies)
    stream.open(caller.setCookies)
    if (req.method === 'HEAD') return stream.end()
    await run(stream, opening, (end) => res.once('close', end))
  }

  return {
    /** A node:http step: answers the stream URLs, passes everything else on. */
    handle(req: IncomingMessage, res: ServerResponse, next: () => void) {
      const url = streamUrlOf(req)
      if (!url) return next()
      serve(req, res, url).catch((error: unknown) => {
        const refusal = failed(req.method, url, error)
        if (res.headersSent) res.destroy()
        else refuse(res, refusal)
      })
    },
    /**
     * The route's way (app/routes/api/events.ts): the same refusals and frames as a Fetch
     * `Response`, for a GET or HEAD whose caller the route resolved (`callerOf`).
     */
    async respond(request: Request, caller: Caller | CallerRefusal): Promise<Response> {
      if (isCallerRefusal(caller)) return refusalResponse(caller)
      const url = new URL(request.url)
      const opening = await openingFor(
        url,
        lastEventIdOf(request.headers.get('Last-Event-ID')),
        caller,
      ).catch((error: unknown) => failed(request.method, url, error))
      if ('status' in opening) return refusalResponse(opening)
      const stream = new ResponseEventStream({ retryMs: retryFor(url), signal: request.signal })
      if (request.method === 'HEAD') {
        stream.end()
        return stream.response
      }
      // The headers go out now; what the feed catches up on follows them, as on the door.
      run(stream, opening, (end) => stream.onClose(end)).catch((error: unknown) => {
        failed(request.method, url, error)
        stream.end()
      })
      return stream.response
    },
    get openStreams() {
      return open.size
    },
    broadcaster,
    /** Ends every stream (on SIGTERM): clients reconnect, to another instance if this one is going. */
    close() {
      isClosing = true
      for (const stream of open) stream.end()
      broadcaster.stop()
    },
  }
}

/**
 * The stream a node request asks for, or null. Every request passes here: a string test spares
 * the others a URL parse. A target no URL parser accepts ('http://[bad/') is not a stream: the
 * request adapter refuses it with a 400. Other methods go on to the route, which refuses them as
 * it refuses any method a read does not take (a mutation without a CSRF token first).
 */
export function streamUrlOf(req: IncomingMessage): URL | null {
  if (!req.url?.includes('/api/events/') || (req.method !== 'GET' && req.method !== 'HEAD')) return null
  const url = URL.parse(req.url, 'http://localhost')
  return url && STREAM_PATHS.includes(url.pathname) ? url : null
}

/** A stream request that failed: logged as the router logs any request, answered as it would be. */
function failed(method: string | undefined, url: URL, error: unknown): Refusal {
  if (isDatabaseUnavailable(error)) {
    logUnavailable(method, url.pathname)
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: UNAVAILABLE_MESSAGE,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }
  }
  console.error('Event stream failed', error)
  return { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong' }
}

const retryFor = (url: URL) => (url.pathname === '/api/events/tasks' ? TASKS_RETRY_MS : COMMENTS_RETRY_MS)

const lastEventIdOf = (header: string | string[] | null | undefined) =>
  typeof header === 'string' && header !== '' ? header : null

/** Where a stream resumes: `Last-Event-ID` on a reconnect, else `?after=`; undefined when malformed. */
function resumeCursor(lastEventId: string | null, url: URL): number | null | undefined {
  const value = lastEventId ?? url.searchParams.get('after')
  if (value === null) return null
  return CURSOR.test(value) ? Number(value) : undefined
}

/** A refusal's headers: `{code, message}` JSON like every /api/ endpoint's, never cached. */
function refusalHeaders({ headers }: Refusal) {
  // Vary as the compression step adds it to the route's JSON: a cache must not mix the two.
  return {
    ...headers,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    Vary: 'Accept-Encoding',
  }
}

function refuse(res: ServerResponse, refusal: Refusal, setCookies: string[] = []) {
  const body = JSON.stringify({ code: refusal.code, message: refusal.message })
  if (setCookies.length > 0) res.appendHeader('Set-Cookie', setCookies)
  res.writeHead(refusal.status, { ...refusalHeaders(refusal), 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

function refusalResponse(refusal: Refusal) {
  return Response.json(
    { code: refusal.code, message: refusal.message },
    { status: refusal.status, headers: refusalHeaders(refusal) },
  )
}

let processStreams: EventStreams | undefined

/**
 * The process's streams, one broadcaster for all of them: the door ahead of the router and the
 * route share it, so either way a stream is tracked, kept alive and ended on SIGTERM alike.
 */
export function eventStreams(): EventStreams {
  processStreams ??= createEventStreams(database())
  return processStreams
}
