import { env } from '~/env.server'
import { listPosts } from '~/services/content.server'
import { publicResource } from '~/utils/public-cache.server'
import { escapeXml } from '~/utils/xml'
import type { Route } from './+types/rss'

const FEED_TITLE = 'Threadwork blog'
const FEED_DESCRIPTION =
  'How Threadwork is built: notes on the server, the data layer, the RPC door and the UI.'

/** /blog/rss.xml: the posts as an RSS 2.0 feed, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  const posts = await listPosts()
  const baseUrl = env().BASE_URL
  const blogUrl = `${baseUrl}/blog`
  const items = posts.map((post) => {
    const link = `${blogUrl}/${post.path}`
    return [
      '    <item>',
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <description>${escapeXml(post.description)}</description>`,
      `      <pubDate>${new Date(post.date).toUTCString()}</pubDate>`,
      // RSS's own <author> must be an e-mail address; Dublin Core's creator takes a name.
      `      <dc:creator>${escapeXml(post.author)}</dc:creator>`,
      ...post.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`),
      '    </item>',
    ].join('\n')
  })
  const newest = posts[0]
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${escapeXml(FEED_TITLE)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(FEED_DESCRIPTION)}</description>`,
    '    <language>en</language>',
    `    <atom:link href="${escapeXml(`${blogUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${new Date(newest.date).toUTCString()}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
  return publicResource(request, body, 'application/rss+xml; charset=utf-8')
}
