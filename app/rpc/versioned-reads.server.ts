import { type Database, database } from '~/db/client.server'
import { discussionVersion, mentionablesVersion, visibleTasksVersion } from '~/services/read-versions.server'
import type { SessionUser } from '~/services/session-user'
import { matchesEtag } from '~/utils/public-cache.server'
import { z } from '~/utils/zod'
import { notModified, RPC_CACHE_CONTROL, withHttpCaching } from './http-cache.server'

/**
 * The reads pages poll, answered from their version (docs/decisions/025-reads-versioned-by-the-event-log.md).
 * Their ETag is derived from the version, read before anything is built: a caller that holds
 * the current answer gets a 304 for the session lookup, an access check and one index probe;
 * anyone else gets the answer last built under that version, or a freshly built one. Every
 * other GET keeps the ETag of its body (app/rpc/http-cache.server.ts).
 */

type Caller = SessionUser | null
type VersionOf = (db: Database, caller: Caller, input: unknown) => Promise<string> | null

const TaskInput = z.object({ taskId: z.string().min(1) })

function withTask(version: (taskId: string) => Promise<string>) {
  return (input: unknown) => {
    const parsed = TaskInput.safeParse(input)
    return parsed.success ? version(parsed.data.taskId) : null
  }
}

/** By procedure path. A read that the caller may not make has no version: the procedure answers. */
const VERSIONED_READS: Record<string, VersionOf> = {
  'comments/getComments': (db, caller, input) =>
    withTask((taskId) => discussionVersion(db, caller, taskId))(input),
  'task/getTaskUsers': (db, caller, input) =>
    caller && withTask((taskId) => mentionablesVersion(db, caller, taskId))(input),
  'task/getAll': (db, caller) => caller && visibleTasksVersion(db, caller),
}

/** The input of a GET as oRPC's RPC protocol sends it: `?data={"json": …}`, no special types. */
function inputOf(url: URL): { value: unknown } | null {
  const data = url.searchParams.get('data')
  if (data === null) return { value: undefined }
  try {
    const parsed = JSON.parse(data) as { json?: unknown; meta?: unknown[] } | null
    if (parsed === null || typeof parsed !== 'object') return null
    if (Array.isArray(parsed.meta) && parsed.meta.length > 0) return null
    return { value: parsed.json }
  } catch {
    return null
  }
}

/** The ETag of a versioned read, or null when the request is not one (or cannot be answered so). */
async function etagOf(url: URL, prefix: string, db: Database, caller: Caller): Promise<string | null> {
  const versionOf = VERSIONED_READS[url.pathname.slice(prefix.length + 1)]
  const input = versionOf && inputOf(url)
  if (!versionOf || !input) return null
  // A refusal (no such task, no access) is the procedure's to answer, in its own words.
  const version = await versionOf(db, caller, input.value)?.catch(() => null)
  return version ? `"${version}"` : null
}

type BuiltAnswer = { body: Uint8Array<ArrayBuffer>; contentType: string }

/**
 * Answers built under a version, by ETag. The ETag names the procedure, its input, the viewer
 * where the answer differs by viewer, and the versions, so an entry can only be served to a
 * caller who would have built the same bytes — and only after that caller's access check.
 * Bounded: least recently used first out.
 */
class BuiltAnswers {
  #entries = new Map<string, BuiltAnswer>()
  #bytes = 0

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get(etag: string) {
    const answer = this.#entries.get(etag)
    if (answer) {
      this.#entries.delete(etag)
      this.#entries.set(etag, answer)
    }
    return answer
  }

  set(etag: string, answer: BuiltAnswer) {
    if (answer.body.byteLength > this.maxBytes / 16 || this.#entries.has(etag)) return
    this.#entries.set(etag, answer)
    this.#bytes += answer.body.byteLength
    for (const [oldest, { body }] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= body.byteLength
    }
  }
}

const builtAnswers = new BuiltAnswers(500, 16 * 1024 * 1024)

function answerWith({ body, contentType }: BuiltAnswer, etag: string) {
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Length': String(body.byteLength),
      ETag: etag,
      'Cache-Control': RPC_CACHE_CONTROL,
    },
  })
}

/**
 * Answers an /api/rpc GET: from its version when it has one, else through `handle` with the
 * ETag of its body. `handle` runs the procedure.
 */
export async function answerRead(
  request: Request,
  { prefix, caller }: { prefix: string; caller: Caller },
  handle: () => Promise<Response>,
): Promise<Response> {
  const etag = await etagOf(new URL(request.url), prefix, database(), caller)
  if (etag === null) return withHttpCaching(request, await handle())
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) return notModified(etag)
  const built = builtAnswers.get(etag)
  if (built) return answerWith(built, etag)

  const response = await handle()
  const contentType = response.headers.get('Content-Type') ?? ''
  if (response.status !== 200 || !contentType.startsWith('application/json')) {
    return withHttpCaching(request, response)
  }
  const answer = { body: new Uint8Array(await response.arrayBuffer()), contentType }
  builtAnswers.set(etag, answer)
  return answerWith(answer, etag)
}
