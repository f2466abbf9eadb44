import type { HeadersArgs } from 'react-router'

/** Browsers may reuse a marketing page for a minute, shared caches (a CDN) for five. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=60, s-maxage=300'

/**
 * The `headers` export of a public page. A document that sets a cookie (a toast being read, a
 * session being refreshed) is about one visitor, so it is never stored by a shared cache; nor is
 * a page whose parent already said it is private. `Vary: Cookie` keeps a cache from handing one
 * visitor's personalised page (the header's account control) to another.
 */
export function publicPageHeaders({
  parentHeaders,
  loaderHeaders,
  actionHeaders,
  errorHeaders,
}: HeadersArgs): Headers {
  const headers = new Headers()
  // An action's answer (a 429's Retry-After, its no-store) wins over the page's own; cookies are
  // merged by React Router itself.
  for (const source of [loaderHeaders, actionHeaders]) {
    for (const [name, value] of source) {
      if (name.toLowerCase() !== 'set-cookie') headers.set(name, value)
    }
  }
  const parentCacheControl = parentHeaders.get('Cache-Control') ?? ''
  const isPersonal =
    parentHeaders.has('Set-Cookie') ||
    loaderHeaders.has('Set-Cookie') ||
    /\b(private|no-store)\b/.test(parentCacheControl)
  if (errorHeaders) {
    headers.set('Cache-Control', 'no-store')
  } else if (isPersonal) {
    headers.set('Cache-Control', 'private, no-store')
  } else if (!headers.has('Cache-Control')) {
    headers.set('Cache-Control', PUBLIC_PAGE_CACHE_CONTROL)
  }
  headers.append('Vary', 'Cookie')
  return headers
}
