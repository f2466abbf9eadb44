import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { LRUCache } from 'lru-cache'
import { asReadByThisRequest, type Database, database } from '~/db/client.server'
import {
  discussionVersion,
  mentionablesVersion,
  visibleTasksVersion,
  workspaceTasksVersion,
} from '~/services/read-versions.server'
import type { SessionUser } from '~/services/session-user'
import { InWorkspaceSchema } from '~/services/tasks/task-schemas'
import { COMMENT_VIEW_SHAPE, MENTIONABLE_SHAPE, TASK_VIEW_SHAPE } from '~/services/tasks/view-fields'
import { matchesEtag } from '~/utils/public-cache.server'
import { z } from '~/utils/zod'
import { RPC_PREFIX } from './handler.server'
import { RPC_CACHE_CONTROL, withHttpCaching } from './http-cache.server'

/**
 * The reads pages poll, answered from their version (docs/decisions/028-reads-versioned-by-the-event-log.md).
 * Their ETag is derived from the version, read before anything is built: a caller that holds
 * the current answer gets a 304 for the session lookup, an access check and one index probe;
 * anyone else gets the answer last built under that version, or a freshly built one. Every
 * other GET keeps the ETag of its body (app/rpc/http-cache.server.ts).
 */

type Caller = SessionUser | null
type VersionOf = (db: Database, caller: Caller, input: unknown) => Promise<string> | null

const TaskInput = z.object({ taskId: z.string().min(1) })
/** task.getAll's input, as the procedure parses it: nothing, or the workspace to list. */
const ListInput = InWorkspaceSchema.optional()

function withTask(version: (taskId: string) => Promise<string>) {
  return (input: unknown) => {
    const parsed = TaskInput.safeParse(input)
    return parsed.success ? version(parsed.data.taskId) : null
  }
}

/**
 * By procedure path: the view its answer is a list of, and its version. A read that the caller
 * may not make has no version: the procedure answers.
 */
const VERSIONED_READS = {
  'comments/getComments': {
    shape: COMMENT_VIEW_SHAPE,
    versionOf: (db, caller, input) => withTask((taskId) => discussionVersion(db, caller, taskId))(input),
  },
  'task/getTaskUsers': {
    shape: MENTIONABLE_SHAPE,
    versionOf: (db, caller, input) =>
      caller && withTask((taskId) => mentionablesVersion(db, caller, taskId))(input),
  },
  'task/getAll': {
    shape: TASK_VIEW_SHAPE,
    versionOf: (db, caller, input) => {
      const parsed = ListInput.safeParse(input)
      if (!caller || !parsed.success) return null
      const workspaceId = parsed.data?.workspaceId
      return workspaceId === undefined
        ? visibleTasksVersion(db, caller)
        : workspaceTasksVersion(db, caller, workspaceId)
    },
  },
} satisfies Record<string, { shape: object; versionOf: VersionOf }>

export type VersionedRead = keyof typeof VERSIONED_READS

/**
 * Bump only when a field keeps its name but changes what it holds (a date's format, say): a field
 * added, renamed or removed changes its answer's shape by itself.
 */
const FIELD_MEANINGS_REVISION = 1

/** A shape's field names at every depth, sorted, so the order they are written in does not count. */
function fieldNames(shape: object): unknown[] {
  return Object.entries(shape)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, field]) => (typeof field === 'object' ? [name, fieldNames(field)] : name))
}

/**
 * The shape of an answer, as the start of its ETag: from the fields of its view, so a release that
 * adds, renames or removes one never confirms (304) or serves an answer built without it.
 */
export function answerShape(shape: object) {
  return createHash('sha256')
    .update(JSON.stringify([FIELD_MEANINGS_REVISION, fieldNames(shape)]))
    .digest('base64url')
    .slice(0, 8)
}

/** Each versioned read's answer shape, computed once. */
export const ANSWER_SHAPES = Object.fromEntries(
  Object.entries(VERSIONED_READS).map(([path, { shape }]) => [path, answerShape(shape)]),
) as Record<VersionedRead, string>

const isVersionedRead = (path: string): path is VersionedRead => Object.hasOwn(VERSIONED_READS, path)

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

/**
 * The ETag of a versioned read, or null when the request is not one (or cannot be answered so).
 * The caller is looked up only for a versioned read, so other requests pay nothing here.
 */
async function etagOf(
  url: URL,
  db: Database,
  caller: () => Promise<Caller>,
  shapes: Record<VersionedRead, string>,
): Promise<string | null> {
  const path = url.pathname.slice(RPC_PREFIX.length + 1)
  const input = isVersionedRead(path) ? inputOf(url) : null
  if (!input) return null
  const { versionOf } = VERSIONED_READS[path as VersionedRead]
  const who = await caller()
  // Looking the caller up may have sent the request to the primary, which has the person's own
  // writes (docs/decisions/051-a-failed-sync-is-not-an-error.md). A refusal (no such task, no
  // access) is the procedure's to answer, in its own words.
  const version = await versionOf(asReadByThisRequest(db), who, input.value)?.catch(() => null)
  return version ? `"${shapes[path as VersionedRead]}.${version}"` : null
}

type Bytes = Uint8Array<ArrayBuffer>
type Encoding = 'br' | 'gzip'
/** An answer as built, with its compressed forms: compressed once, not per request. */
type BuiltAnswer = { body: Bytes; contentType: string; encoded: Partial<Record<Encoding, Bytes>> }

/** The compression middleware's threshold (server/app.ts): below it, headers cost more than they save. */
const MIN_COMPRESSED_BYTES = 1024

export function compressedAnswer(body: Bytes, contentType: string): BuiltAnswer {
  if (body.byteLength < MIN_COMPRESSED_BYTES) return { body, contentType, encoded: {} }
  const bytes = (buffer: Buffer): Bytes =>
    new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)) as Bytes
  return {
    body,
    contentType,
    encoded: {
      br: bytes(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })),
      gzip: bytes(gzipSync(body)),
    },
  }
}

const sizeOf = (answer: BuiltAnswer) =>
  answer.body.byteLength + (answer.encoded.br?.byteLength ?? 0) + (answer.encoded.gzip?.byteLength ?? 0)

/** The encoding the caller accepts that we hold: brotli first, then gzip (a `q=0` refuses). */
function encodingFor(acceptEncoding: string | null, answer: BuiltAnswer): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name),
  )
  if (answer.encoded.br && accepted.has('br')) return 'br'
  if (answer.encoded.gzip && accepted.has('gzip')) return 'gzip'
  return null
}

/**
 * Answers built under a version, by ETag. The ETag names the procedure, its input, the viewer
 * where the answer differs by viewer, and the versions, so an entry can only be served to a
 * caller who would have built the same bytes — and only after that caller's access check.
 * Bounded by count and by bytes, least recently used first out; an answer larger than a
 * sixteenth of the bytes is not kept.
 */
export function builtAnswersCache(maxEntries: number, maxBytes: number) {
  return new LRUCache<string, BuiltAnswer>({
    max: maxEntries,
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 16,
    sizeCalculation: sizeOf,
  })
}

const builtAnswers = builtAnswersCache(500, 16 * 1024 * 1024)

/**
 * What a versioned read answers without running its procedure: a bodiless 304, or the answer kept
 * under its version, in the encoding the caller accepts (the compression middleware leaves it as
 * it is). Plain headers and bytes, so both the route and the server's step ahead of React Router
 * (server/versioned-reads.ts) can send it.
 */
export type KnownAnswer = { status: 200 | 304; headers: Record<string, string>; body?: Bytes }

function notModifiedAnswer(etag: string): KnownAnswer {
  return { status: 304, headers: { ETag: etag, 'Cache-Control': RPC_CACHE_CONTROL, Vary: 'Accept-Encoding' } }
}

function keptAnswer(acceptEncoding: string | null, answer: BuiltAnswer, etag: string): KnownAnswer {
  const encoding = encodingFor(acceptEncoding, answer)
  const body = encoding ? (answer.encoded[encoding] as Bytes) : answer.body
  const headers: Record<string, string> = {
    'Content-Type': answer.contentType,
    'Content-Length': String(body.byteLength),
    ETag: etag,
    'Cache-Control': RPC_CACHE_CONTROL,
    Vary: 'Accept-Encoding',
  }
  if (encoding) headers['Content-Encoding'] = encoding
  return { status: 200, headers, body }
}

/**
 * A GET of /api/rpc from its version: `etag` is null when the request is no versioned read (or
 * one the caller may not make, which its procedure refuses in its own words); `known` is what to
 * answer without the procedure, null when it must run. `shapes` are the answers' shapes of this
 * release; a test passes another release's.
 */
export async function answerFromVersion(
  url: URL,
  caller: () => Promise<Caller>,
  headers: { ifNoneMatch: string | null; acceptEncoding: string | null },
  db: Database = database(),
  shapes: Record<VersionedRead, string> = ANSWER_SHAPES,
): Promise<{ etag: string | null; known: KnownAnswer | null }> {
  const etag = await etagOf(url, db, caller, shapes)
  if (etag === null) return { etag, known: null }
  if (matchesEtag(headers.ifNoneMatch, etag)) return { etag, known: notModifiedAnswer(etag) }
  const kept = builtAnswers.get(etag)
  return { etag, known: kept ? keptAnswer(headers.acceptEncoding, kept, etag) : null }
}

const asResponse = ({ status, headers, body }: KnownAnswer) =>
  new Response(status === 304 ? null : body, { status, headers })

/**
 * Answers an /api/rpc GET: from its version when it has one, else through `handle` with the
 * ETag of its body. `handle` runs the procedure.
 */
export async function answerRead(
  request: Request,
  caller: Caller,
  handle: () => Promise<Response>,
): Promise<Response> {
  const { etag, known } = await answerFromVersion(new URL(request.url), async () => caller, {
    ifNoneMatch: request.headers.get('If-None-Match'),
    acceptEncoding: request.headers.get('Accept-Encoding'),
  })
  if (etag === null) return withHttpCaching(request, await handle())
  if (known) return asResponse(known)

  const response = await handle()
  const contentType = response.headers.get('Content-Type') ?? ''
  if (response.status !== 200 || !contentType.startsWith('application/json')) {
    return withHttpCaching(request, response)
  }
  const answer = compressedAnswer(new Uint8Array(await response.arrayBuffer()), contentType)
  builtAnswers.set(etag, answer)
  return asResponse(keptAnswer(request.headers.get('Accept-Encoding'), answer, etag))
}
