import { describe, expect, test } from 'vitest'
import { isActivePath, SIGNED_OUT_LINKS } from '~/components/header'

describe('isActivePath', () => {
  test('a link is active on its own page and every page below it', () => {
    expect(isActivePath('/docs', '/docs')).toBe(true)
    expect(isActivePath('/docs/getting-started', '/docs')).toBe(true)
    expect(isActivePath('/blog/2024/hello', '/blog')).toBe(true)
  })

  test('a link is not active elsewhere', () => {
    expect(isActivePath('/', '/docs')).toBe(false)
    expect(isActivePath('/blog', '/docs')).toBe(false)
    expect(isActivePath('/support', '/pricing')).toBe(false)
  })

  test('the signed-out header lists its links in the order of the product rules (§4)', () => {
    expect(SIGNED_OUT_LINKS.map((link) => link.label)).toEqual([
      'Showcase',
      'Blog',
      'Docs',
      'Changelog',
      'Pricing',
      'Support',
    ])
  })
})
