import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { absoluteUrl, baseUrlFrom, DEFAULT_SOCIAL_IMAGE, seo } from '~/utils/seo'

const matches = [{ id: 'root', loaderData: { config: { baseUrl: 'https://threadwork.example' } } }]

function tag(tags: ReturnType<typeof seo>, key: string, name: string) {
  const found = tags.find((entry) => (entry as Record<string, unknown>)[key] === name) as
    | Record<string, string>
    | undefined
  return found?.content ?? found?.href
}

describe('seo', () => {
  test('gives a page its title, description, canonical URL, Open Graph and Twitter tags', () => {
    const tags = seo({ matches, title: 'Testing — Docs', description: 'How to test.', path: '/docs/testing' })

    expect(tags).toContainEqual({ title: 'Testing — Docs | Threadwork' })
    expect(tag(tags, 'name', 'description')).toBe('How to test.')
    expect(tag(tags, 'rel', 'canonical')).toBe('https://threadwork.example/docs/testing')
    expect(tag(tags, 'property', 'og:url')).toBe('https://threadwork.example/docs/testing')
    expect(tag(tags, 'property', 'og:title')).toBe('Testing — Docs | Threadwork')
    expect(tag(tags, 'property', 'og:type')).toBe('website')
    expect(tag(tags, 'property', 'og:image')).toBe('https://threadwork.example/og-image.png')
    expect(tag(tags, 'name', 'twitter:card')).toBe('summary_large_image')
    expect(tag(tags, 'name', 'twitter:image')).toBe('https://threadwork.example/og-image.png')
    expect(tag(tags, 'name', 'robots')).toBeUndefined()
  })

  test('the default social card exists in public/', () => {
    expect(existsSync(`public${DEFAULT_SOCIAL_IMAGE}`)).toBe(true)
  })

  test('a post is an article with its own image and publication date', () => {
    const tags = seo({
      matches,
      title: 'Hello',
      description: 'd',
      path: '/blog/hello',
      image: '/covers/hello.png',
      type: 'article',
      publishedAt: '2026-01-02T00:00:00.000Z',
    })

    expect(tag(tags, 'property', 'og:type')).toBe('article')
    expect(tag(tags, 'property', 'og:image')).toBe('https://threadwork.example/covers/hello.png')
    expect(tag(tags, 'name', 'twitter:image')).toBe('https://threadwork.example/covers/hello.png')
    expect(tag(tags, 'property', 'article:published_time')).toBe('2026-01-02T00:00:00.000Z')
  })

  test('suffixes a title that merely mentions Threadwork', () => {
    const tags = seo({ matches, title: 'Threadwork, step one', description: 'd', path: '/blog/one' })

    expect(tags).toContainEqual({ title: 'Threadwork, step one | Threadwork' })
  })

  test('keeps a title that leads with the brand, and absolute image URLs', () => {
    const tags = seo({
      matches,
      title: 'Threadwork — tasks, talked through',
      description: 'd',
      path: '/',
      image: 'https://cdn.example/card.png',
    })

    expect(tags).toContainEqual({ title: 'Threadwork — tasks, talked through' })
    expect(tag(tags, 'property', 'og:image')).toBe('https://cdn.example/card.png')
    expect(tag(tags, 'rel', 'canonical')).toBe('https://threadwork.example/')
  })

  test('marks pages that should stay out of search indexes', () => {
    expect(
      tag(seo({ matches, title: 'x', description: 'd', path: '/docs', noindex: true }), 'name', 'robots'),
    ).toBe('noindex')
  })
})

describe('URLs', () => {
  test('the base URL comes from the root loader, or is empty while it is missing', () => {
    expect(baseUrlFrom(matches)).toBe('https://threadwork.example')
    expect(baseUrlFrom([{ id: 'root', loaderData: undefined }])).toBe('')
    expect(baseUrlFrom([undefined])).toBe('')
  })

  test('joins without doubled or missing slashes', () => {
    expect(absoluteUrl('https://a.example/', '/docs')).toBe('https://a.example/docs')
    expect(absoluteUrl('https://a.example', 'docs')).toBe('https://a.example/docs')
    expect(absoluteUrl('https://a.example', 'http://b.example/x')).toBe('http://b.example/x')
  })
})
