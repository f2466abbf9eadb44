import { createHash } from 'node:crypto'
import { matchesEtag } from '~/utils/public-cache.server'

/**
 * HTTP caching for /api/rpc answers. Pages poll reads (mentions every 3 s, comments every 2 s:
 * docs/product-rules.md §3) and revalidate with `If-None-Match`, so an unchanged answer costs a bodiless 304
 * instead of the same JSON again. The ETag hashes the body: it changes exactly when the answer
 * does, whoever asks. `private` keeps shared caches out (answers depend on the session cookie);
 * `no-cache` makes the browser ask every time rather than reuse a stored answer unasked.
 */
export const RPC_CACHE_CONTROL = 'private, no-cache'

/**
 * Gives a JSON answer its length, and a successful GET its ETag (a 304 when the caller already
 * holds that body). POST answers gain only the length. The length matters beyond HTTP hygiene:
 * without one, the compression middleware (server/app.ts) cannot see that a body is under its
 * 1 KB threshold and gzips even a 40-byte answer. Event streams and files pass untouched. Reads
 * with a version are tagged from it instead (app/rpc/versioned-reads.server.ts).
 */
export async function withHttpCaching(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? ''
  if (response.body === null || !type.startsWith('application/json')) return response

  const body = new Uint8Array(await response.arrayBuffer())
  const headers = new Headers(response.headers)
  if (!headers.has('Content-Length')) headers.set('Content-Length', String(body.byteLength))

  if (request.method === 'GET' && response.status === 200) {
    const tag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    headers.set('ETag', tag)
    headers.set('Cache-Control', RPC_CACHE_CONTROL)
    if (matchesEtag(request.headers.get('If-None-Match'), tag)) return notModified(tag, headers.get('Vary'))
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}

/** RFC 9110 §15.4.5: a 304 repeats the validators and caching headers of the 200. */
function notModified(etag: string, vary?: string | null): Response {
  const headers = new Headers({ ETag: etag, 'Cache-Control': RPC_CACHE_CONTROL })
  if (vary) headers.set('Vary', vary)
  return new Response(null, { status: 304, headers })
}
