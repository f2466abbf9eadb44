import { env } from '~/env.server'
import { listDocs, listPosts } from '~/services/content.server'
import { publicResource } from '~/utils/public-cache.server'
import { absoluteUrl } from '~/utils/seo'
import { escapeXml } from '~/utils/xml'
import type { Route } from './+types/sitemap'

/** Public pages that are not content files, in the order the header lists them. */
const STATIC_PUBLIC_PATHS = [
  '/',
  '/showcase',
  '/blog',
  '/docs',
  '/changelog',
  '/pricing',
  '/support',
  '/terms',
  '/privacy',
]

/** /sitemap.xml: every public page, doc and post, for search engines. */
export async function loader({ request }: Route.LoaderArgs) {
  const [docs, posts] = await Promise.all([listDocs(), listPosts()])
  const baseUrl = env().BASE_URL
  const urls: { path: string; lastModified?: string }[] = [
    ...STATIC_PUBLIC_PATHS.map((path) => ({ path })),
    // The 'index' doc is /docs itself.
    ...docs.filter((doc) => doc.path !== 'index').map((doc) => ({ path: `/docs/${doc.path}` })),
    ...posts.map((post) => ({ path: `/blog/${post.path}`, lastModified: post.date.slice(0, 10) })),
  ]
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map(
      ({ path, lastModified }) =>
        `  <url><loc>${escapeXml(absoluteUrl(baseUrl, path))}</loc>${
          lastModified ? `<lastmod>${lastModified}</lastmod>` : ''
        }</url>`,
    ),
    '</urlset>',
    '',
  ].join('\n')
  return publicResource(request, body, 'application/xml; charset=utf-8')
}
