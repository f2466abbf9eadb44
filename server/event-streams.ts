import type { IncomingMessage, ServerResponse } from 'node:http'
import { sessionFromCookies } from '~/auth/context.server'
import type { Database } from '~/db/client.server'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '~/db/unavailable.server'
import { env } from '~/env.server'
import { NotFound } from '~/services/errors'
import { liveSessionIds } from '~/services/sessions.server'
import { getTask } from '~/services/tasks/reads.server'
import { createBroadcaster } from '~/streams/broadcaster.server'
import { EventStream } from '~/streams/event-stream.server'
import { commentFeed, type Feed, follow, taskFeed } from '~/streams/feeds.server'

/**
 * The two event-stream doors, served here ahead of React Router: a stream through the router's
 * Request and ReadableStream costs about twice the memory per subscriber and misses the fan-out
 * goal (docs/decisions/023-event-streams-ahead-of-the-router.md). They use the same session and
 * the same services as every other door.
 */

/** How long a client waits before reconnecting: the spec's 3 s for tasks, 5 s for comments. */
export const TASKS_RETRY_MS = 3000
export const COMMENTS_RETRY_MS = 5000
/** A comment line this often keeps idle connections and proxies open (the spec's 5 s). */
export const KEEP_ALIVE_MS = 5000
/**
 * How often open streams look their sessions up again: a session revoked elsewhere (signed out,
 * "sign out other sessions", a new password, a deleted account) ends its streams within this.
 */
export const SESSION_CHECK_MS = 15_000

const CURSOR = /^\d{1,15}$/
const TASK_ID = /^[\w-]{1,64}$/

type Refusal = { status: number; code: string; message: string; headers?: Record<string, string> }

export type EventStreams = ReturnType<typeof createEventStreams>

export function createEventStreams(
  db: Database,
  {
    broadcaster = createBroadcaster(db, { pollMs: env().EVENT_STREAM_POLL_MS }),
    keepAliveMs = KEEP_ALIVE_MS,
    sessionCheckMs = SESSION_CHECK_MS,
  } = {},
) {
  const open = new Set<EventStream>()
  /** The session each signed-in stream was opened with; anonymous streams have none. */
  const sessionOf = new Map<EventStream, string>()
  let keepAlive: ReturnType<typeof setInterval> | undefined
  let sessionCheck: ReturnType<typeof setInterval> | undefined

  function track(stream: EventStream, sessionId: string | undefined) {
    open.add(stream)
    if (sessionId) sessionOf.set(stream, sessionId)
    keepAlive ??= setInterval(() => {
      for (const each of open) each.keepAlive()
    }, keepAliveMs).unref()
    sessionCheck ??= setInterval(endStreamsOfEndedSessions, sessionCheckMs).unref()
  }

  function untrack(stream: EventStream) {
    open.delete(stream)
    sessionOf.delete(stream)
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
    if (isCheckingSessions || sessionOf.size === 0) return
    isCheckingSessions = true
    try {
      const live = await liveSessionIds(db, [...new Set(sessionOf.values())])
      for (const [stream, sessionId] of sessionOf) if (!live.has(sessionId)) stream.end()
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

  /** The feed a request asks for (and the session it was opened with), or why it may not have one. */
  async function feedFor(
    req: IncomingMessage,
    url: URL,
  ): Promise<{ feed: Feed; sessionId?: string } | Refusal> {
    const session = await sessionFromCookies(req.headers.cookie)
    const user = session?.user ?? null
    if (url.pathname === '/api/events/tasks') {
      return user
        ? { feed: taskFeed(user), sessionId: session?.id }
        : { status: 401, code: 'UNAUTHORIZED', message: 'You need to sign in to do that.' }
    }
    const taskId = url.searchParams.get('taskId') ?? ''
    if (!TASK_ID.test(taskId)) return { status: 400, code: 'BAD_REQUEST', message: 'taskId is required' }
    try {
      await getTask(db, user, taskId)
    } catch (error) {
      if (error instanceof NotFound) return { status: 404, code: 'NOT_FOUND', message: error.message }
      throw error
    }
    return { feed: commentFeed(user, taskId), sessionId: session?.id }
  }

  let isClosing = false

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (isClosing) {
      // Stopping: the client's EventSource gives up on this answer, and the page reconnects to
      // another instance (or this one restarted) after its back-off.
      return refuse(res, {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'This server is stopping',
        headers: { 'Retry-After': '1' },
      })
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return refuse(res, {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: 'Method not allowed',
        headers: { Allow: 'GET, HEAD' },
      })
    }
    const resumeAfter = resumeCursor(req, url)
    if (resumeAfter === undefined) {
      return refuse(res, {
        status: 400,
        code: 'BAD_REQUEST',
        message: 'Last-Event-ID and after must be event ids',
      })
    }
    // Listening from the start: a client may leave while its session is being looked up.
    const stream = new EventStream(res, {
      retryMs: url.pathname === '/api/events/tasks' ? TASKS_RETRY_MS : COMMENTS_RETRY_MS,
    })
    const wanted = await feedFor(req, url)
    if (stream.isClosed) return
    if ('status' in wanted) return refuse(res, wanted)
    stream.open()
    if (req.method === 'HEAD') return stream.end()
    track(stream, wanted.sessionId)
    let unsubscribe: (() => void) | undefined
    res.once('close', () => {
      untrack(stream)
      unsubscribe?.()
    })
    unsubscribe = await follow(db, broadcaster, stream, wanted.feed, resumeAfter)
    if (stream.isClosed) unsubscribe()
  }

  return {
    /** A node:http step: answers the stream URLs, passes everything else on. */
    handle(req: IncomingMessage, res: ServerResponse, next: () => void) {
      // Every request passes here: a string test spares the others a URL parse. A target no URL
      // parser accepts ('http://[bad/') is not a stream: the request adapter refuses it with a 400.
      if (!req.url?.includes('/api/events/')) return next()
      const url = URL.parse(req.url, 'http://localhost')
      if (url?.pathname !== '/api/events/tasks' && url?.pathname !== '/api/events/comments') return next()
      serve(req, res, url).catch((error: unknown) => {
        const isUnavailable = isDatabaseUnavailable(error)
        console.error('Event stream failed', isUnavailable ? UNAVAILABLE_MESSAGE : error)
        if (res.headersSent) res.destroy()
        else if (isUnavailable)
          refuse(res, {
            status: 503,
            code: 'SERVICE_UNAVAILABLE',
            message: UNAVAILABLE_MESSAGE,
            headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
          })
        else refuse(res, { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong' })
      })
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

/** Where a stream resumes: `Last-Event-ID` on a reconnect, else `?after=`; undefined when malformed. */
function resumeCursor(req: IncomingMessage, url: URL): number | null | undefined {
  const header = req.headers['last-event-id']
  const value = (typeof header === 'string' && header !== '' ? header : null) ?? url.searchParams.get('after')
  if (value === null) return null
  return CURSOR.test(value) ? Number(value) : undefined
}

function refuse(res: ServerResponse, { status, code, message, headers }: Refusal) {
  const body = JSON.stringify({ code, message })
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  })
  res.end(body)
}
