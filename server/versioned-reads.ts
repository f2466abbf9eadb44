import type { IncomingMessage, ServerResponse } from 'node:http'
import { findSessionAnywhere } from '~/auth/context.server'
import { catchUpWithOwnWrites } from '~/auth/own-writes.server'
import { SESSION_COOKIE, sessionCookie } from '~/auth/session-cookie.server'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '~/db/unavailable.server'
import { RPC_PREFIX } from '~/rpc/handler.server'
import { answerFromVersion } from '~/rpc/versioned-reads.server'
import type { ActiveSession } from '~/services/sessions.server'
import { readCookie } from '~/utils/cookies.server'

const READS_PREFIX = `${RPC_PREFIX}/`

/**
 * The reads pages poll, answered ahead of React Router when nothing changed
 * (docs/decisions/028-reads-versioned-by-the-event-log.md): a poll that holds the current answer
 * gets its 304, and anyone else the answer already built under the current version, for a
 * session lookup and one index probe — without a Fetch Request, route matching and the root
 * middleware, which cost several times that. Everything else (a read that must be built, a
 * refusal, any other procedure or method) passes on to the route, which answers it as before.
 * The session is renewed as the route would: a renewed one gets its cookie.
 */
export function createVersionedReads() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url?.startsWith(READS_PREFIX)) return next()
    const url = URL.parse(req.url, 'http://localhost')
    if (!url) return next()
    answer(req, res, url).then(
      (isAnswered) => {
        if (!isAnswered) next()
      },
      (error: unknown) => {
        if (!isDatabaseUnavailable(error)) {
          // The route meets the same problem, and answers it as it answers any failure.
          console.error('Versioned read failed', error)
          return next()
        }
        console.error(`${req.method} ${url.pathname}: ${UNAVAILABLE_MESSAGE}`)
        const body = JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE })
        res.writeHead(503, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
          'Retry-After': String(RETRY_AFTER_SECONDS),
        })
        res.end(req.method === 'HEAD' ? undefined : body)
      },
    )
  }
}

/** Sends what the version allows without the procedure; false when the route must answer. */
async function answer(req: IncomingMessage, res: ServerResponse, url: URL) {
  const token = readCookie(req.headers.cookie ?? null, SESSION_COOKIE)
  // Looked up only when the request is a versioned read: other procedures pass on at no cost.
  const found: { session: ActiveSession | null; droppedPosition?: string } = { session: null }
  const caller = async () => {
    // As the root middleware does before a route reads: the replica catches up with the person's
    // own last write, so a poll right after it is not answered from before it.
    found.droppedPosition = await catchUpWithOwnWrites(req.headers.cookie)
    found.session = token ? await findSessionAnywhere(token) : null
    return found.session?.user ?? null
  }
  const { known } = await answerFromVersion(url, caller, {
    ifNoneMatch: req.headers['if-none-match'] ?? null,
    acceptEncoding: req.headers['accept-encoding'] ?? null,
  })
  // The lookup renewed the session (it was old enough): its cookie goes out with this response,
  // whether it is answered here or by the route, whose own lookup now finds nothing to renew.
  if (token && found.session?.isRenewed) res.setHeader('Set-Cookie', sessionCookie(token))
  if (found.droppedPosition) res.appendHeader('Set-Cookie', found.droppedPosition)
  if (!known) return false
  res.writeHead(known.status, known.headers)
  res.end(req.method === 'HEAD' || known.status === 304 ? undefined : known.body)
  return true
}
