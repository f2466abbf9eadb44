import type { MetaDescriptor } from 'react-router'

/**
 * The head tags one public page needs for search engines and link previews: title, description,
 * canonical URL, Open Graph and Twitter cards. A route's `meta` replaces its parents' (React
 * Router renders only the deepest one), so this returns the complete set, not additions.
 *
 *   export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
 *     seo({ matches, title: 'Pricing', description: '…', path: '/pricing' })
 *
 * Absolute URLs come from the configured base URL, which the root loader hands to the browser
 * as `config.baseUrl`; meta functions reach it through `matches`, on the server and the client.
 */

const SITE_NAME = 'Threadwork'

/** The card a page without an image of its own is shared with. */
export const DEFAULT_SOCIAL_IMAGE = '/og-image.png'

export type SeoPage = {
  /**
   * 'Pricing' becomes 'Pricing | Threadwork'. A title that already leads with the brand
   * ('Threadwork — tasks, talked through', or just 'Threadwork') is kept as it is.
   */
  title: string
  description: string
  /** The canonical path of the page ('/docs/testing'), without query string. */
  path: string
  /** A path on this site or an absolute URL; empty or missing means the site's default card. */
  image?: string
  /** 'article' for blog posts, 'website' for everything else. */
  type?: 'website' | 'article'
  /** ISO date of an article, for `article:published_time`. */
  publishedAt?: string
  /** Keeps the page out of search indexes (error pages, search results). */
  noindex?: boolean
  /** The meta function's `matches`, where the root loader's base URL is found. */
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>
}

export function seo(page: SeoPage): MetaDescriptor[] {
  const baseUrl = baseUrlFrom(page.matches)
  const title = isBrandTitle(page.title) ? page.title : `${page.title} | ${SITE_NAME}`
  const url = absoluteUrl(baseUrl, page.path)
  const image = absoluteUrl(baseUrl, page.image || DEFAULT_SOCIAL_IMAGE)
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: page.type ?? 'website' },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: page.description },
    { name: 'twitter:image', content: image },
  ]
  if (page.type === 'article' && page.publishedAt) {
    tags.push({ property: 'article:published_time', content: page.publishedAt })
  }
  if (page.noindex) tags.push({ name: 'robots', content: 'noindex' })
  return tags
}

function isBrandTitle(title: string) {
  return title === SITE_NAME || title.startsWith(`${SITE_NAME} — `) || title.startsWith(`${SITE_NAME} | `)
}

/** The configured base URL, as the root loader sent it; '' while the root failed to load. */
export function baseUrlFrom(matches: SeoPage['matches']): string {
  const root = matches.find((match) => match?.id === 'root')?.loaderData
  if (typeof root !== 'object' || root === null || !('config' in root)) return ''
  const config = root.config
  if (typeof config !== 'object' || config === null || !('baseUrl' in config)) return ''
  return typeof config.baseUrl === 'string' ? config.baseUrl : ''
}

/** `/docs` on `https://example.com` → `https://example.com/docs`; absolute URLs pass through. */
export function absoluteUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//.test(path)) return path
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

/** The tags of a content page that does not exist (a 404 under `section`): kept out of indexes. */
export function notFoundSeo(matches: SeoPage['matches'], section: string): MetaDescriptor[] {
  return seo({
    matches,
    title: 'Not Found',
    description: 'This page does not exist.',
    path: section,
    noindex: true,
  })
}
