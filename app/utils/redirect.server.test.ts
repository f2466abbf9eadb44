import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { env } from '~/env.server'
import { localPath, safeRedirect } from '~/utils/redirect.server'
import { OFF_SITE_TARGETS } from '../../tests/helpers/redirect-attacks'

const site = () => new URL(env().BASE_URL)

/** Where a browser lands after `Location: value` on a page of this site. */
function landing(value: string) {
  return new URL(value, new URL('/some/page?x=1', site()))
}

describe('localPath: one decision for every redirect target', () => {
  test.each([
    ['/', '/'],
    ['/docs', '/docs'],
    ['/docs/intro?tab=2#setup', '/docs/intro?tab=2#setup'],
    ['/task?task=abc#c1', '/task?task=abc#c1'],
    ['/docs/a%20b', '/docs/a%20b'],
    ['/login?redirect=%2Fdashboard', '/login?redirect=%2Fdashboard'],
    // Encoded slashes and backslashes are ordinary characters of one path segment.
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/%5C/evil.example', '/%5C/evil.example'],
    // Slashes from other scripts are not slashes to a URL parser.
    ['/\uFF0F/evil.example', '/%EF%BC%8F/evil.example'],
    ['/\u2215evil.example', '/%E2%88%95evil.example'],
    // What a browser would do with it: padding trimmed, tabs and newlines dropped, `\` read as `/`.
    ['  /task  ', '/task'],
    ['/ta\tsk', '/task'],
    ['\\task', '/task'],
    ['/docs\r\nSet-Cookie: session=stolen', '/docsSet-Cookie:%20session=stolen'],
    ['/docs/caf\u00e9', '/docs/caf%C3%A9'],
  ])('keeps %j on the site as %j', (target, expected) => {
    expect(localPath(target)).toBe(expected)
  })

  test('keeps an absolute URL of this site as its path', () => {
    expect(localPath(`${env().BASE_URL}/task?task=1`)).toBe('/task?task=1')
    expect(localPath(`${env().BASE_URL.toUpperCase()}/task`)).toBe('/task')
  })

  test.each([
    ...OFF_SITE_TARGETS,
    ['a bare query', '?task=1'],
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('refuses %s', (_label, target) => {
    expect(localPath(target)).toBeNull()
  })

  test('refuses missing values and uploaded files', () => {
    expect(localPath(null)).toBeNull()
    expect(localPath(undefined)).toBeNull()
    expect(localPath(['/docs'])).toBeNull()
    expect(localPath(new File(['/docs'], 'x.txt'))).toBeNull()
  })

  property.prop([
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', '/', '//', '/\\', '\t', '/.'),
  ])('whatever it keeps is a Location header value that lands on this site', (tail, head) => {
    const kept = localPath(head + tail)
    if (kept === null) return
    expect(() => new Headers({ Location: kept })).not.toThrow()
    expect(kept).toMatch(/^\/(?![/\\])/)
    expect(landing(kept).origin).toBe(site().origin)
    // Reading it back gives the same path: what we send is what the browser opens.
    expect(localPath(kept)).toBe(kept)
  })
})

describe('safeRedirect', () => {
  test('gives the target when it is local, else the fallback', () => {
    expect(safeRedirect('/docs')).toBe('/docs')
    expect(safeRedirect('//evil.example')).toBe('/')
    expect(safeRedirect('/.//evil.example', '/dashboard')).toBe('/dashboard')
  })
})
