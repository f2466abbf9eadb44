import { describe, expect, test } from 'vitest'
import { safeRedirect } from '~/utils/redirect'

describe('safeRedirect', () => {
  test.each(['/', '/docs', '/docs/intro?tab=2#setup', '/task?task=abc'])(
    'keeps a path on this site (%s)',
    (path) => {
      expect(safeRedirect(path)).toBe(path)
    },
  )

  test.each([
    ['a protocol-relative URL', '//evil.com'],
    ['a backslash that browsers read as a slash', '/\\evil.com'],
    ['an absolute URL', 'https://evil.com/phish'],
    ['a script URL', 'javascript:alert(1)'],
    // Browsers drop tabs and newlines inside URLs, so this is `//evil.com` to them.
    ['a tab hiding a second slash', '/\t/evil.com'],
    ['a relative path', 'docs'],
    ['an empty string', ''],
  ])('refuses %s and falls back to home', (_label, target) => {
    expect(safeRedirect(target)).toBe('/')
  })

  test('refuses missing values and uploaded files', () => {
    expect(safeRedirect(null)).toBe('/')
    expect(safeRedirect(undefined)).toBe('/')
    expect(safeRedirect(new File(['/docs'], 'x.txt'))).toBe('/')
  })

  test('always gives a value a Location header can carry', () => {
    const target = safeRedirect('/docs\r\nSet-Cookie: session=stolen')
    expect(target.startsWith('/docs')).toBe(true)
    expect(() => new Headers({ Location: target })).not.toThrow()
  })

  test('uses the given fallback', () => {
    expect(safeRedirect('//evil.com', '/dashboard')).toBe('/dashboard')
  })
})
