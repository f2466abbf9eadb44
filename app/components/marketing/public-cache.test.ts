import { describe, expect, test } from 'vitest'
import { PUBLIC_PAGE_CACHE_CONTROL, publicPageHeaders } from './public-cache'

function headersFor({
  parent = {},
  loader = {},
  action = {},
  error,
}: {
  parent?: HeadersInit
  loader?: HeadersInit
  action?: HeadersInit
  error?: HeadersInit
}) {
  return publicPageHeaders({
    parentHeaders: new Headers(parent),
    loaderHeaders: new Headers(loader),
    actionHeaders: new Headers(action),
    errorHeaders: error ? new Headers(error) : undefined,
  })
}

describe('publicPageHeaders', () => {
  test('a plain public page may be cached briefly, by browsers and shared caches', () => {
    const headers = headersFor({})
    expect(headers.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE_CONTROL)
    expect(PUBLIC_PAGE_CACHE_CONTROL).toBe('public, max-age=60, s-maxage=300')
    expect(headers.get('Vary')).toBe('Cookie')
  })

  test('a page that sets a cookie (a toast being read) is for one visitor only', () => {
    expect(headersFor({ parent: { 'Set-Cookie': 'tw_toast=; Max-Age=0' } }).get('Cache-Control')).toBe(
      'private, no-store',
    )
  })

  test('a parent that says private is obeyed', () => {
    expect(headersFor({ parent: { 'Cache-Control': 'private, max-age=0' } }).get('Cache-Control')).toBe(
      'private, no-store',
    )
  })

  test('the loader’s and the action’s own headers win, Retry-After included', () => {
    expect(headersFor({ loader: { 'Cache-Control': 'private, no-store' } }).get('Cache-Control')).toBe(
      'private, no-store',
    )
    const answer = headersFor({ action: { 'Cache-Control': 'no-store', 'Retry-After': '120' } })
    expect(answer.get('Cache-Control')).toBe('no-store')
    expect(answer.get('Retry-After')).toBe('120')
  })

  test('an error page is never cached', () => {
    expect(headersFor({ error: {} }).get('Cache-Control')).toBe('no-store')
  })
})
