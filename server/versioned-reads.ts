import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearerTokenOf, resolveSession } from '~/auth/context.server'
import { RPC_PREFIX } from '~/rpc/handler.server'
import { answerFromVersion } from '~/rpc/versioned-reads.server'
import { type Door, passOnFailure } from './door'

const READS_PREFIX = `${RPC_PREFIX}/`

/**
 * The reads pages poll, answered ahead of React Router when nothing changed
 * (docs/decisions/028-reads-versioned-by-the-event-log.md): a poll that holds the current answer
 * gets its 304, and anyone else the answer already built under the current version, for a
 * session lookup and one index probe — without a Fetch Request, route matching and the root
 * middleware, which cost several times that. Everything else (a read that must be built, a
 * refusal, any other procedure or method) passes on to the route, which answers it as before.
 * The session is looked up as the root middleware does (`resolveSession`): a renewed one gets its
 * cookie, whether this step or the route answers.
 */
export function createVersionedReads(): Door {
  return {
    // A program's poll (a bearer token) goes to the route, which counts it against the token's
    // rate limit; browsers' polls are what this door is for.
    matches: (req) =>
      (req.method === 'GET' || req.method === 'HEAD') &&
      Boolean(req.url?.startsWith(READS_PREFIX)) &&
      bearerTokenOf(req.headers.authorization) === null,
    handle(req, res, next) {
      const url = URL.parse(req.url ?? '', 'http://localhost')
      if (!url) return next()
      answer(req, res, url).then(
        (isAnswered) => {
          if (!isAnswered) next()
        },
        passOnFailure(res, next),
      )
    },
  }
}

/** Sends what the version allows without the procedure; false when the route must answer. */
async function answer(req: IncomingMessage, res: ServerResponse, url: URL) {
  // Looked up only when the request is a versioned read: other procedures pass on at no cost.
  // A renewed session's cookie goes out with this response, whether it is answered here or by
  // the route, whose own lookup now finds nothing to renew (the request adapter adds the route's
  // cookies to it, server/listener.ts).
  const caller = async () => {
    const { session, setCookies } = await resolveSession(req.headers.cookie)
    if (setCookies.length > 0) res.appendHeader('Set-Cookie', setCookies)
    return session?.user ?? null
  }
  const { known } = await answerFromVersion(url, caller, {
    ifNoneMatch: req.headers['if-none-match'] ?? null,
    acceptEncoding: req.headers['accept-encoding'] ?? null,
  })
  if (!known) return false
  res.writeHead(known.status, known.headers)
  res.end(req.method === 'HEAD' || known.status === 304 ? undefined : known.body)
  return true
}
