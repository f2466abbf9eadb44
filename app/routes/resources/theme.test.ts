import { describe, expect, test } from 'vitest'
import { callAction, callLoader } from '../../../tests/helpers/route'
import { action, loader } from './theme'

describe('/resources/theme', () => {
  test('stores the theme in a year-long cookie and goes back to the page it came from', async () => {
    const result = await callAction(action, {
      url: '/resources/theme',
      form: { theme: 'dark', redirectTo: '/docs/getting-started?tab=1' },
    })
    expect(result.status).toBe(302)
    expect(result.location).toBe('/docs/getting-started?tab=1')
    expect(result.headers.getSetCookie()).toEqual(['theme=dark; Path=/; Max-Age=31536000; SameSite=Lax'])
  })

  test('answers a fetcher (no redirectTo) with the stored theme', async () => {
    const result = await callAction(action, { url: '/resources/theme', form: { theme: 'light' } })
    expect(result.status).toBe(200)
    expect(result.data).toEqual({ theme: 'light' })
    expect(result.headers.getSetCookie()[0]).toMatch(/^theme=light;/)
  })

  test.each(['//evil.com', 'https://evil.com/phish', '/\\evil.com', '/\t/evil.com'])(
    'refuses to redirect off-site (%s) and goes home instead',
    async (redirectTo) => {
      const result = await callAction(action, {
        url: '/resources/theme',
        form: { theme: 'dark', redirectTo },
      })
      expect(result.status).toBe(302)
      expect(result.location).toBe('/')
    },
  )

  test.each(['blue', ''])('rejects an unknown theme (%j) with 400 and stores nothing', async (theme) => {
    const result = await callAction(action, {
      url: '/resources/theme',
      form: { theme, redirectTo: '/docs' },
    })
    expect(result.status).toBe(400)
    expect(result.data).toEqual({ error: 'Theme must be "light" or "dark".' })
    expect(result.headers.getSetCookie()).toEqual([])
    expect(result.location).toBeNull()
  })

  test('a GET (someone opening the URL) goes home', async () => {
    const result = await callLoader(loader, { url: '/resources/theme' })
    expect(result).toMatchObject({ thrown: true, status: 302, location: '/' })
  })
})
