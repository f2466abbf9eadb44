/**
 * Rendered public documents, kept in memory so a page that is the same for every anonymous
 * visitor is rendered once per version instead of once per request
 * (docs/decisions/027-pages-and-health-near-the-framework-floor.md).
 *
 * What may be kept is decided by the page's own HTTP caching, which already has to be right for
 * browsers and CDNs: only a `200` to a `GET` whose headers say `public` and carry an ETag, and
 * that sets no cookie. `publicCacheHeaders` (public-cache.server.ts) makes a page `public` only
 * when the visitor carries no cookie that says who they are, and its ETag covers everything else
 * the document depends on (content version, path and query, theme cookie, colour-scheme hint,
 * build); a flash toast or a renewed session sets a cookie, and a task in the URL is
 * `no-store`. The ETag (with the request's origin) is therefore the key: two requests with one
 * ETag get one document.
 *
 * The CSP nonce is the one part that must differ per response. A document is stored split at
 * the nonce it was rendered with (16 random bytes, so it appears nowhere else), and every answer
 * joins the parts with the nonce of its own request, the one its CSP header names.
 */

import { LRUCache } from 'lru-cache'

/** A few hundred pages at ~40 KB: bounded so visitors varying cookies cannot grow it without end. */
const MAX_BYTES = 16 * 1024 * 1024

/** A document split at its nonce. */
type Stored = { parts: string[]; bytes: number }

export class DocumentCache {
  readonly #documents: LRUCache<string, Stored>

  /** Least recently used out first once the documents (UTF-16 in memory) pass `maxBytes`. */
  constructor(maxBytes = MAX_BYTES) {
    this.#documents = new LRUCache({ maxSize: maxBytes, sizeCalculation: (stored) => stored.bytes })
  }

  /** The document kept under `key`, with `nonce` in every place its nonce was; undefined if none. */
  get(key: string, nonce: string): string | undefined {
    return this.#documents.get(key)?.parts.join(nonce)
  }

  /** Keeps `html`, rendered with `nonce`, under `key` (one larger than the whole cache is not kept). */
  set(key: string, html: string, nonce: string) {
    if (!nonce) throw new Error('DocumentCache: a document is kept only with the nonce it was rendered with')
    this.#documents.set(key, { parts: html.split(nonce), bytes: html.length * 2 })
  }

  get size() {
    return this.#documents.size
  }
}

/**
 * The key a rendered document may be kept under, or null when it is one visitor's or one
 * moment's: anything but a `200` to a `GET`, a response not `public`, without an ETag, or setting
 * a cookie. Call it after the ETag has its final (build-versioned) value.
 */
export function documentCacheKey(request: Request, status: number, headers: Headers): string | null {
  if (request.method.toUpperCase() !== 'GET' || status !== 200) return null
  const cacheControl = headers.get('Cache-Control') ?? ''
  if (!/(^|,)\s*public\s*(,|$)/.test(cacheControl) || /\b(?:private|no-store)\b/.test(cacheControl))
    return null
  if (headers.has('Set-Cookie')) return null
  const etag = headers.get('ETag')
  if (!etag) return null
  // The origin too: no page reads the Host today, but one that did must not hand a forged Host's
  // page to everyone else.
  const { url } = request
  return `${url.slice(0, url.indexOf('/', url.indexOf('//') + 2))} ${etag}`
}
