import type { APIRequestContext } from '@playwright/test'

/** Every page /sitemap.xml lists, as paths on the server under test. */
export async function sitemapPaths(request: APIRequestContext): Promise<string[]> {
  const response = await request.get('/sitemap.xml')
  if (!response.ok()) throw new Error(`/sitemap.xml answered ${response.status()}`)
  const locations = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => match[1] ?? '',
  )
  if (locations.length === 0) throw new Error('/sitemap.xml lists no pages')
  return locations.map((location) => {
    const url = new URL(location.replaceAll('&amp;', '&'))
    return url.pathname + url.search
  })
}
