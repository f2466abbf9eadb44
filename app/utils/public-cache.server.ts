import { createHash } from 'node:crypto'
import { TIME_ZONE_COOKIE } from './calendar'

/**
 * HTTP caching for public pages (docs, blog, changelog, legal pages, feeds): a short shared
 * max-age, and an ETag so a browser or CDN revalidating an unchanged page gets a bodiless 304.
 *
 *   loader:  return data(…, { headers: publicCacheHeaders(request, await contentVersion(['docs'])) })
 *   route:   export const headers = publicPageHeaders
 *   server:  entry.server.tsx answers 304 through `notModifiedResponse`
 *
 * A rendered document depends on more than the content: the theme cookie (the `<html>` class),
 * a session (the header's account menu), a flash toast, the client hint for the colour scheme,
 * and the build (asset URLs). The ETag covers all of them, and `Vary: Cookie` keeps shared caches
 * from handing one visitor's page to another.
 */

const PUBLIC_CACHE_CONTROL = 'public, max-age=60, s-maxage=300'
/** Anyone carrying cookies beyond the theme (a session, a CSRF token) gets a page only for them. */
const PRIVATE_CACHE_CONTROL = 'private, max-age=0, must-revalidate'

/**
 * Cookies that say nothing about who is looking: the theme (it changes the page, and the ETag
 * covers it), the anonymous id that CSRF tokens of signed-out visitors are bound to, the time
 * zone every page's boot script stores (read only by signed-in views, the dashboard), and the
 * replica position of the visitor's last write (a signing out leaves one; own-writes.server.ts),
 * so a returning visitor's public pages stay shareable.
 */
const ANONYMOUS_COOKIES = new Set(['theme', 'tw_anon', TIME_ZONE_COOKIE, 'tw_wrote'])

/**
 * The root renders the task modal on any page whose URL names a task (`?task=<id>`): that
 * page carries the task as it is now, and who may read it changes at any moment (made private,
 * unshared, deleted), which neither `version` nor the ETag knows about.
 */
const TASK_PAGE_CACHE_CONTROL = 'private, no-store'

/** Cache headers for a public response whose body is determined by `version` and the request. */
export function publicCacheHeaders(request: Request, version: string): Headers {
  const url = new URL(request.url)
  if (url.searchParams.has('task')) return new Headers({ 'Cache-Control': TASK_PAGE_CACHE_CONTROL })
  const cookie = request.headers.get('Cookie') ?? ''
  const fingerprint = createHash('sha256')
    .update(
      [
        version,
        url.pathname.replace(/\.data$/, ''),
        url.search,
        cookie,
        request.headers.get('Sec-CH-Prefers-Color-Scheme') ?? '',
      ].join('\n'),
    )
    .digest('base64url')
    .slice(0, 27)
  return new Headers({
    'Cache-Control': hasPersonalCookies(cookie) ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
    ETag: `W/"${fingerprint}"`,
    Vary: 'Cookie',
  })
}

function hasPersonalCookies(cookieHeader: string) {
  return cookieHeader
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .some((name) => name !== '' && !ANONYMOUS_COOKIES.has(name))
}

type HeadersArgs = {
  loaderHeaders: Headers
  parentHeaders: Headers
  actionHeaders?: Headers
  errorHeaders?: Headers
}

/**
 * A route's `headers` export for public pages: the loader's cache headers on success. A response
 * that sets a cookie (a flash toast being consumed), or whose parent says it is private, is one
 * person's and is never stored; neither is an error page or the answer to a form post.
 */
export function publicPageHeaders({
  loaderHeaders,
  parentHeaders,
  actionHeaders,
  errorHeaders,
}: HeadersArgs): Headers {
  const headers = new Headers()
  if (errorHeaders) {
    headers.set('Cache-Control', 'no-store')
    return headers
  }
  if (actionHeaders && [...actionHeaders.keys()].length > 0) {
    // The answer to a form post (a 429's Retry-After, say) is about that post, never stored;
    // React Router merges cookies itself.
    for (const [name, value] of actionHeaders) if (name !== 'set-cookie') headers.set(name, value)
    headers.set('Cache-Control', 'no-store')
    return headers
  }
  for (const name of ['Cache-Control', 'ETag', 'Vary']) {
    const value = loaderHeaders.get(name)
    if (value) headers.set(name, value)
  }
  const parentCacheControl = parentHeaders.get('Cache-Control') ?? ''
  if (
    parentHeaders.has('Set-Cookie') ||
    loaderHeaders.has('Set-Cookie') ||
    /\b(?:private|no-store)\b/.test(parentCacheControl)
  ) {
    headers.set('Cache-Control', 'private, no-store')
    headers.delete('ETag')
  }
  return headers
}

/**
 * For entry.server: folds the build's version into a document's ETag (new assets, new page) and
 * answers a matching `If-None-Match` with a bodiless 304. The 304 carries no CSP on purpose: the
 * browser keeps the stored page together with the stored policy whose nonce matches it.
 */
export function notModifiedResponse(
  request: Request,
  status: number,
  headers: Headers,
  buildVersion: string,
): Response | null {
  const etag = headers.get('ETag')
  if (!etag) return null
  const versioned = `${etag.slice(0, -1)}-${buildVersion}"`
  headers.set('ETag', versioned)
  const method = request.method.toUpperCase()
  if (status !== 200 || (method !== 'GET' && method !== 'HEAD')) return null
  if (!matchesEtag(request.headers.get('If-None-Match'), versioned)) return null
  const notModified = new Headers()
  for (const name of ['Cache-Control', 'ETag', 'Vary']) {
    const value = headers.get(name)
    if (value) notModified.set(name, value)
  }
  return new Response(null, { status: 304, headers: notModified })
}

/** Weak comparison, as RFC 9110 prescribes for If-None-Match. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted)
}

/**
 * A public resource (sitemap, robots.txt, feed) with an ETag of its body; a matching
 * `If-None-Match` gets a bodiless 304.
 */
export function publicResource(request: Request, body: string, contentType: string): Response {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  const headers = new Headers({ 'Cache-Control': PUBLIC_CACHE_CONTROL, ETag: etag })
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) {
    return new Response(null, { status: 304, headers })
  }
  headers.set('Content-Type', contentType)
  return new Response(request.method.toUpperCase() === 'HEAD' ? null : body, { headers })
}
