import { describe, expect, test } from 'vitest'
import {
  matchesEtag,
  notModifiedResponse,
  publicCacheHeaders,
  publicPageHeaders,
  publicResource,
} from '~/utils/public-cache.server'

const request = (headers: HeadersInit = {}, url = 'http://localhost/docs') => new Request(url, { headers })

describe('publicCacheHeaders', () => {
  test('the ETag depends on the content version, the URL, cookies and the theme hint', () => {
    const etag = (req: Request, version = 'v1') => publicCacheHeaders(req, version).get('ETag')
    const base = etag(request())

    expect(etag(request())).toBe(base)
    expect(etag(request(), 'v2')).not.toBe(base)
    expect(etag(request({}, 'http://localhost/docs?q=x'))).not.toBe(base)
    expect(etag(request({ Cookie: 'theme=dark' }))).not.toBe(base)
    expect(etag(request({ 'Sec-CH-Prefers-Color-Scheme': 'dark' }))).not.toBe(base)
    // A client-side navigation's data request is the same page.
    expect(etag(request({}, 'http://localhost/docs.data'))).toBe(base)
  })

  test('anonymous visitors may be served from shared caches; anyone else only privately', () => {
    const cacheControl = (cookie?: string) =>
      publicCacheHeaders(request(cookie ? { Cookie: cookie } : {}), 'v').get('Cache-Control')

    expect(cacheControl()).toBe('public, max-age=60, s-maxage=300')
    expect(cacheControl('theme=light; tw_anon=abc')).toBe('public, max-age=60, s-maxage=300')
    expect(cacheControl('tw_wrote=1234')).toBe('public, max-age=60, s-maxage=300')
    expect(cacheControl('tw_session=secret')).toBe('private, max-age=0, must-revalidate')
  })

  test('a page showing a task modal (?task=) is never stored, for anyone', () => {
    for (const cookie of [undefined, 'tw_session=secret']) {
      const headers = publicCacheHeaders(
        request(cookie ? { Cookie: cookie } : {}, 'http://localhost/?task=t1'),
        'v',
      )
      expect(headers.get('Cache-Control')).toBe('private, no-store')
      expect(headers.get('ETag')).toBeNull()
    }
  })
})

describe('publicPageHeaders', () => {
  const loaderHeaders = publicCacheHeaders(request(), 'v')

  test("passes the loader's cache headers on", () => {
    const headers = publicPageHeaders({ loaderHeaders, parentHeaders: new Headers() })

    expect(headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(headers.get('ETag')).toBe(loaderHeaders.get('ETag'))
    expect(headers.get('Vary')).toBe('Cookie')
  })

  test('a response that sets a cookie is never stored, nor validated', () => {
    const parentHeaders = new Headers({ 'Set-Cookie': 'tw_toast=; Max-Age=0' })

    const headers = publicPageHeaders({ loaderHeaders, parentHeaders })

    expect(headers.get('Cache-Control')).toBe('private, no-store')
    expect(headers.get('ETag')).toBeNull()
  })

  test("the answer to a form post keeps the action's headers and is not stored", () => {
    const actionHeaders = new Headers({ 'Retry-After': '30' })

    const headers = publicPageHeaders({ loaderHeaders, parentHeaders: new Headers(), actionHeaders })

    expect(headers.get('Retry-After')).toBe('30')
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.get('ETag')).toBeNull()
  })

  test('an error page is not stored', () => {
    const headers = publicPageHeaders({
      loaderHeaders,
      parentHeaders: new Headers(),
      errorHeaders: new Headers(),
    })

    expect(headers.get('Cache-Control')).toBe('no-store')
  })
})

describe('notModifiedResponse', () => {
  const documentHeaders = () => new Headers({ ETag: 'W/"abc"', 'Cache-Control': 'public, max-age=60' })

  test('folds the build version into the ETag', () => {
    const headers = documentHeaders()

    expect(notModifiedResponse(request(), 200, headers, 'build1')).toBeNull()
    expect(headers.get('ETag')).toBe('W/"abc-build1"')
  })

  test('answers a matching If-None-Match with a bodiless 304 that carries no CSP', async () => {
    const response = notModifiedResponse(
      request({ 'If-None-Match': 'W/"other", W/"abc-build1"' }),
      200,
      documentHeaders(),
      'build1',
    )

    expect(response?.status).toBe(304)
    expect(await response?.text()).toBe('')
    expect(response?.headers.get('ETag')).toBe('W/"abc-build1"')
    expect(response?.headers.get('Content-Security-Policy')).toBeNull()
  })

  test('renders normally for another build, an error status, or a page without an ETag', () => {
    expect(
      notModifiedResponse(request({ 'If-None-Match': 'W/"abc-build1"' }), 200, documentHeaders(), 'build2'),
    ).toBeNull()
    expect(
      notModifiedResponse(request({ 'If-None-Match': 'W/"abc-build1"' }), 404, documentHeaders(), 'build1'),
    ).toBeNull()
    expect(notModifiedResponse(request({ 'If-None-Match': '*' }), 200, new Headers(), 'build1')).toBeNull()
  })

  test('compares weakly, as If-None-Match requires', () => {
    expect(matchesEtag('"abc"', 'W/"abc"')).toBe(true)
    expect(matchesEtag('*', 'W/"abc"')).toBe(true)
    expect(matchesEtag('"abd"', 'W/"abc"')).toBe(false)
    expect(matchesEtag(null, 'W/"abc"')).toBe(false)
  })
})

describe('publicResource', () => {
  test('serves the body with an ETag of it, and a 304 to a reader that has it', async () => {
    const first = publicResource(request(), '<xml/>', 'application/xml')
    const etag = first.headers.get('ETag') ?? ''

    const again = publicResource(request({ 'If-None-Match': etag }), '<xml/>', 'application/xml')
    const changed = publicResource(request({ 'If-None-Match': etag }), '<xml>new</xml>', 'application/xml')

    expect(await first.text()).toBe('<xml/>')
    expect(first.headers.get('Content-Type')).toBe('application/xml')
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(changed.status).toBe(200)
  })
})
