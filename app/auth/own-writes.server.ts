import { database } from '~/db/client.server'
import {
  catchUpTo,
  isReplica,
  positionFromNow,
  readFromPrimary,
  readsFromPrimary,
  withOwnWrites,
} from '~/db/replicas.server'
import { expireCookie, readCookie, serializeCookie } from '~/utils/cookies.server'

/**
 * Read-your-writes for a person on embedded replicas, whichever worker or instance answers
 * (docs/decisions/037-read-your-writes-across-replicas.md): a response to a request that wrote
 * carries the replica position of that write in a cookie, and a request whose position is ahead
 * of the replica that receives it makes that replica sync before anything reads. On a plain file
 * or a remote database there is no cookie and nothing to do.
 */

/** The primary's frame number after this browser's last write. A hint, not a credential. */
export const OWN_WRITES_COOKIE = 'tw_wrote'

/** The longest sync interval allowed (DATABASE_SYNC_INTERVAL_SECONDS): past it every replica has the write. */
const COOKIE_MAX_AGE_SECONDS = 3600

const POSITION = /^\d{1,15}$/
/**
 * The cookie after a write whose position is unknown (the sync after it failed): the next request
 * syncs before it reads, whatever its replica reached, or reads from the primary.
 */
const UNKNOWN_POSITION = 'unknown'

function positionCookie(position: number | typeof UNKNOWN_POSITION) {
  return serializeCookie(OWN_WRITES_COOKIE, String(position), { maxAgeSeconds: COOKIE_MAX_AGE_SECONDS })
}

/**
 * Before a request reads: brings the replica that answers it up to the position of the person's
 * own last write, if it is behind it. Costs nothing when the replica is already there (no request
 * to the primary) and on a database that is no replica. A made-up position costs at most one
 * sync, shared with concurrent requests. When the sync fails even after its tries, the request
 * reads from the primary instead, which has the write, and a primary out of reach answers 503
 * there (docs/decisions/051-a-failed-sync-is-not-an-error.md); a replica that cannot sync tries
 * at most once per few seconds (replicas.server.ts). Returns the `Set-Cookie` that drops a cookie
 * the primary never reached, or that replaces an unknown position by the one a sync reached, for
 * the callers that can send it (the root middleware, and the fast paths that read).
 */
export async function catchUpWithOwnWrites(
  cookies: string | null | undefined,
  db = database(),
): Promise<string | undefined> {
  if (!isReplica(db) || readsFromPrimary()) return undefined
  const position = readCookie(cookies ?? null, OWN_WRITES_COOKIE)
  if (position === undefined) return undefined
  if (position === UNKNOWN_POSITION) {
    const reached = await positionFromNow(db)
    if (reached !== undefined) return positionCookie(reached)
    readFromPrimary()
    return undefined
  }
  if (!POSITION.test(position)) return expireCookie(OWN_WRITES_COOKIE)
  const outcome = await catchUpTo(db, Number(position))
  if (outcome === 'unknown') readFromPrimary()
  return outcome === 'beyond-primary' ? expireCookie(OWN_WRITES_COOKIE) : undefined
}

/**
 * Runs a request's loaders and actions; when they wrote through a replica, also answers with the
 * cookie that carries the position of that write to the person's next request.
 */
export async function rememberOwnWrites<T>(
  run: () => Promise<T>,
  db = database(),
): Promise<{ result: T; cookie?: string }> {
  if (!isReplica(db)) return { result: await run() }
  const { result, position } = await withOwnWrites(db, run)
  if (position === undefined) return { result }
  return { result, cookie: positionCookie(position) }
}
