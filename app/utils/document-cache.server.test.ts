import { describe, expect, test } from 'vitest'
import { DocumentCache, documentCacheKey } from './document-cache.server'
import { publicCacheHeaders, publicPageHeaders } from './public-cache.server'

const NONCE_A = 'pFXJ3zshLmuEJBkVvyIRRQ=='
const NONCE_B = 'xGxznWIiijhpYw/g6OEEmw=='
const page = (nonce: string) =>
  `<html><script nonce="${nonce}">boot()</script><script nonce="${nonce}">window.__ctx={"nonce":"${nonce}"}</script></html>`

/** The headers a public page's response has by the time entry.server renders it. */
function headersFor(request: Request, parentHeaders = new Headers()) {
  return publicPageHeaders({ loaderHeaders: publicCacheHeaders(request, 'v1'), parentHeaders })
}

describe('DocumentCache', () => {
  test('answers each request with its own nonce in every place the stored one was', () => {
    const cache = new DocumentCache()
    cache.set('key', page(NONCE_A), NONCE_A)
    const answer = cache.get('key', NONCE_B)
    expect(answer).toBe(page(NONCE_B))
    expect(answer).not.toContain(NONCE_A)
    // The next one gets its own again, not the previous answer's.
    const next = cache.get('key', 'bm9uY2UtY3ttb3RoZXI9PQ==')
    expect(next).toBe(page('bm9uY2UtY3ttb3RoZXI9PQ=='))
  })

  test('keeps nothing under another key, and refuses a document without its nonce', () => {
    const cache = new DocumentCache()
    cache.set('one', page(NONCE_A), NONCE_A)
    expect(cache.get('two', NONCE_B)).toBeUndefined()
    expect(() => cache.set('three', '<html></html>', '')).toThrow()
  })

  test('stays within its size, dropping the least recently used first', () => {
    const html = 'x'.repeat(1000)
    // Room for three documents of 2,000 bytes (UTF-16).
    const cache = new DocumentCache(6000)
    cache.set('a', html, NONCE_A)
    cache.set('b', html, NONCE_A)
    cache.set('c', html, NONCE_A)
    cache.get('a', NONCE_B)
    cache.set('d', html, NONCE_A)
    expect(cache.size).toBe(3)
    expect(cache.get('b', NONCE_B)).toBeUndefined()
    expect(cache.get('a', NONCE_B)).toBe(html)
    expect(cache.get('d', NONCE_B)).toBe(html)
  })
})

describe('documentCacheKey', () => {
  test('an anonymous GET of a public page is kept under its ETag', () => {
    const request = new Request('http://localhost/docs')
    const headers = headersFor(request)
    expect(documentCacheKey(request, 200, headers)).toBe(`http://localhost ${headers.get('ETag')}`)
  })

  test('the theme cookie and the colour-scheme hint give other keys: a dark page never goes to a light visitor', () => {
    const keyOf = (init?: RequestInit) => {
      const request = new Request('http://localhost/', init)
      return documentCacheKey(request, 200, headersFor(request))
    }
    const keys = [
      keyOf(),
      keyOf({ headers: { Cookie: 'theme=dark' } }),
      keyOf({ headers: { Cookie: 'theme=light' } }),
      keyOf({ headers: { 'Sec-CH-Prefers-Color-Scheme': 'dark' } }),
    ]
    expect(keys.every((key) => key !== null)).toBe(true)
    expect(new Set(keys).size).toBe(keys.length)
  })

  test("a returning visitor's theme and time-zone cookies keep the page shareable", () => {
    const request = new Request('http://localhost/docs', {
      headers: { Cookie: 'theme=dark; tz=Europe%2FBerlin' },
    })
    const headers = headersFor(request)
    expect(headers.get('Cache-Control')).toMatch(/^public/)
    expect(documentCacheKey(request, 200, headers)).toBe(`http://localhost ${headers.get('ETag')}`)
  })

  test('another origin is another key, even with the same ETag', () => {
    const request = new Request('http://localhost/docs')
    const headers = headersFor(request)
    const forged = new Request('http://evil.example/docs')
    expect(documentCacheKey(forged, 200, headers)).not.toBe(documentCacheKey(request, 200, headers))
  })

  test('another path or query is another key', () => {
    const keyOf = (url: string) => {
      const request = new Request(url)
      return documentCacheKey(request, 200, headersFor(request))
    }
    expect(
      new Set([
        keyOf('http://localhost/docs'),
        keyOf('http://localhost/docs?x=1'),
        keyOf('http://localhost/blog'),
      ]).size,
    ).toBe(3)
  })

  test("nothing one visitor's is kept: a session, a toast being read, a task in the URL", () => {
    const signedIn = new Request('http://localhost/', { headers: { Cookie: 'tw_session=abc' } })
    expect(documentCacheKey(signedIn, 200, headersFor(signedIn))).toBeNull()

    // A flash toast sets a cookie (it is read once): the page is that visitor's.
    const toast = new Request('http://localhost/', { headers: { Cookie: 'tw_toast=x' } })
    const toastHeaders = headersFor(toast, new Headers({ 'Set-Cookie': 'tw_toast=; Max-Age=0' }))
    expect(documentCacheKey(toast, 200, toastHeaders)).toBeNull()

    const withTask = new Request('http://localhost/?task=t1')
    expect(documentCacheKey(withTask, 200, headersFor(withTask))).toBeNull()
  })

  test('only a 200 to a GET, public, with an ETag, setting no cookie', () => {
    const request = new Request('http://localhost/docs')
    expect(documentCacheKey(request, 404, headersFor(request))).toBeNull()
    const post = new Request('http://localhost/docs', { method: 'POST' })
    expect(documentCacheKey(post, 200, headersFor(post))).toBeNull()
    expect(documentCacheKey(request, 200, new Headers({ ETag: 'W/"x"' }))).toBeNull()
    expect(documentCacheKey(request, 200, new Headers({ 'Cache-Control': 'public, max-age=60' }))).toBeNull()
    const settingCookie = headersFor(request)
    settingCookie.set('Set-Cookie', 'a=b')
    expect(documentCacheKey(request, 200, settingCookie)).toBeNull()
    expect(
      documentCacheKey(request, 200, new Headers({ 'Cache-Control': 'private, no-store', ETag: 'W/"x"' })),
    ).toBeNull()
  })
})
