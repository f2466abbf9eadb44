import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { resetEnvForTests } from '~/env.server'
import { loader as blogLoader } from '~/routes/blog/index'
import { loader as postLoader } from '~/routes/blog/post'
import { loader as rssLoader } from '~/routes/blog/rss'
import { loader as changelogLoader } from '~/routes/changelog'
import { loader as docPageLoader } from '~/routes/docs/doc'
import { loader as docsHomeLoader } from '~/routes/docs/index'
import { loader as docsLayoutLoader } from '~/routes/docs/layout'
import { loader as privacyLoader } from '~/routes/privacy'
import { loader as robotsLoader } from '~/routes/robots'
import { loader as sitemapLoader } from '~/routes/sitemap'
import { loader as termsLoader } from '~/routes/terms'
import { type ContentFolder, createContentFolder } from '../helpers/content'
import { callLoader } from '../helpers/route'
import { xmlProblem } from '../helpers/xml'

/**
 * The content routes through their loaders, as the server calls them, over a temporary content
 * folder (CONTENT_DIR) that each test fills with exactly the files it needs.
 */

let content: ContentFolder

beforeEach(() => {
  content = createContentFolder()
  process.env.CONTENT_DIR = content.dir
  process.env.BASE_URL = 'https://threadwork.example'
  process.env.SUPPORT_EMAIL = 'help@threadwork.example'
  resetEnvForTests()
})

afterEach(() => {
  content.remove()
  delete process.env.CONTENT_DIR
  delete process.env.BASE_URL
  delete process.env.SUPPORT_EMAIL
  resetEnvForTests()
})

const doc = (title: string, extra = '') => `title: ${title}\ndescription: About ${title}\n${extra}`

describe('/docs', () => {
  test("shows the 'index' doc, with its neighbours and table of contents", async () => {
    content.write('docs/intro.mdx', doc('Intro', 'order: 1'))
    content.write('docs/index.mdx', doc('Welcome', 'order: 2'), '## Start here\n\nHello.')
    content.write('docs/later.mdx', doc('Later', 'order: 3'))

    const { status, data } = await callLoader(docsHomeLoader, { url: '/docs' })

    expect(status).toBe(200)
    if (data.kind !== 'doc') throw new Error('expected a doc')
    expect(data.doc).toMatchObject({ title: 'Welcome', path: 'index' })
    expect(data.doc.html).toContain('Hello.')
    expect(data.doc.toc).toEqual([{ id: 'start-here', title: 'Start here', depth: 2 }])
    expect(data.previous?.path).toBe('intro')
    expect(data.next?.path).toBe('later')
  }, 60_000)

  test("without an 'index' doc, shows the first by order", async () => {
    content.write('docs/second.mdx', doc('Second', 'order: 2'))
    content.write('docs/first.mdx', doc('First', 'order: 1'))

    const { data } = await callLoader(docsHomeLoader, { url: '/docs' })

    expect(data.kind === 'doc' && data.doc.path).toBe('first')
  }, 60_000)

  test("with no docs at all: 404 'No documentation found'", async () => {
    const { status, data, thrown } = await callLoader(docsHomeLoader, { url: '/docs' })

    expect(thrown).toBe(true)
    expect(status).toBe(404)
    expect(data).toEqual({ message: 'No documentation found' })
  })

  test('the sidebar lists every doc by order', async () => {
    content.write('docs/b.mdx', doc('B'))
    content.write('docs/a.mdx', doc('A', 'order: 5'))

    const { data } = await callLoader(docsLayoutLoader, { url: '/docs/a' })

    expect(data.docs).toEqual([
      { title: 'A', description: 'About A', order: 5, path: 'a' },
      { title: 'B', description: 'About B', order: 999, path: 'b' },
    ])
  })

  test('?q= answers search results with title and snippet', async () => {
    content.write('docs/deploy.mdx', doc('Deploying'), 'Mount a volume at /data.')
    content.write('docs/other.mdx', doc('Other'), 'Nothing relevant.')

    const { status, data } = await callLoader(docsHomeLoader, { url: '/docs?q=volume' })

    expect(status).toBe(200)
    if (data.kind !== 'search') throw new Error('expected search results')
    expect(data.query).toBe('volume')
    expect(data.hits.map((hit) => [hit.path, hit.title])).toEqual([['deploy', 'Deploying']])
    expect(data.hits[0]?.snippet.some((part) => part.isMatch && part.text === 'volume')).toBe(true)
  })

  test('/docs/<path> shows that doc; a nested path works', async () => {
    content.write('docs/guides/upgrade.mdx', doc('Upgrading'), 'Steps.')

    const { status, data } = await callLoader(docPageLoader, {
      url: '/docs/guides/upgrade',
      params: { '*': 'guides/upgrade' },
    })

    expect(status).toBe(200)
    expect(data.doc).toMatchObject({ title: 'Upgrading', path: 'guides/upgrade' })
  }, 60_000)

  test('/docs/<missing> is the not-found screen with a 404 and a way back to the docs', async () => {
    content.write('docs/real.mdx', doc('Real'))

    const { status, data, thrown } = await callLoader(docPageLoader, {
      url: '/docs/imaginary',
      params: { '*': 'imaginary' },
    })

    expect(thrown).toBe(true)
    expect(status).toBe(404)
    expect(data).toEqual({ backHref: '/docs' })
  })

  test('/docs/index redirects to /docs, its one address', async () => {
    content.write('docs/index.mdx', doc('Home'))

    const { status, location } = await callLoader(docPageLoader, {
      url: '/docs/index',
      params: { '*': 'index' },
    })

    expect(status).toBe(301)
    expect(location).toBe('/docs')
  })

  test('a bad frontmatter fails the page with the file and the field', async () => {
    content.write('docs/bad.mdx', 'title: Bad\norder: soon')

    await expect(callLoader(docsHomeLoader, { url: '/docs' })).rejects.toThrow(/docs\/bad\.mdx.*"order"/)
  })
})

describe('/blog', () => {
  test('lists posts newest first, ties by order, with author, date, reading time, tags and image', async () => {
    content.write('blog/older.mdx', 'title: Older\ndescription: d\ndate: 2025-01-01')
    content.write('blog/tie-2.mdx', 'title: Tie two\ndescription: d\ndate: 2026-01-01\norder: 2')
    content.write(
      'blog/tie-1.mdx',
      'title: Tie one\ndescription: d\ndate: 2026-01-01\norder: 1\ntags: [a]\nimage: /a.png',
    )

    const { status, data } = await callLoader(blogLoader, { url: '/blog' })

    expect(status).toBe(200)
    expect(data.posts.map((post) => post.path)).toEqual(['tie-1', 'tie-2', 'older'])
    expect(data.posts[0]).toEqual({
      title: 'Tie one',
      description: 'd',
      author: 'Anonymous',
      date: '2026-01-01T00:00:00.000Z',
      tags: ['a'],
      image: '/a.png',
      readingTime: '1 min read',
      order: 1,
      path: 'tie-1',
    })
  })

  test('/blog/<path> shows the post as HTML', async () => {
    content.write('blog/hello.mdx', 'title: Hello\ndescription: d\ndate: 2026-01-01', 'Hello **world**.')

    const { status, data } = await callLoader(postLoader, { url: '/blog/hello', params: { '*': 'hello' } })

    expect(status).toBe(200)
    expect(data.post.title).toBe('Hello')
    expect(data.post.html).toContain('<strong>world</strong>')
  }, 60_000)

  test('/blog/<missing> is a 404', async () => {
    const { status, thrown } = await callLoader(postLoader, { url: '/blog/none', params: { '*': 'none' } })

    expect(thrown).toBe(true)
    expect(status).toBe(404)
  })
})

describe('/changelog, /terms, /privacy', () => {
  test('the changelog lists entries newest first, each with its HTML', async () => {
    content.write('changelog/one.mdx', 'date: 2026-01-01\ntitle: One', 'First *thing*.')
    content.write('changelog/two.mdx', 'date: 2026-02-01\ntitle: Two\nversion: 0.2.0', 'Second.')

    const { data } = await callLoader(changelogLoader, { url: '/changelog' })

    expect(data.entries.map((entry) => [entry.title, entry.version])).toEqual([
      ['Two', '0.2.0'],
      ['One', null],
    ])
    expect(data.entries[1]?.html).toContain('<em>thing</em>')
  }, 60_000)

  test('terms and privacy come from content/pages with the configured support address', async () => {
    content.write(
      'pages/terms.mdx',
      'title: Terms\ndescription: t\nupdated: 2026-11-22',
      'Mail <SupportEmail />.',
    )
    content.write('pages/privacy.mdx', 'title: Privacy\ndescription: p', 'Ask <SupportEmail />.')

    const terms = await callLoader(termsLoader, { url: '/terms' })
    const privacy = await callLoader(privacyLoader, { url: '/privacy' })

    expect(terms.data).toMatchObject({ title: 'Terms', updated: '2026-11-22T00:00:00.000Z' })
    expect(terms.data.html).toContain('mailto:help@threadwork.example')
    expect(privacy.data).toMatchObject({ title: 'Privacy', updated: null })
    expect(privacy.data.html).toContain('help@threadwork.example')
  }, 60_000)

  test('a missing legal page is a 404', async () => {
    const { status, thrown } = await callLoader(termsLoader, { url: '/terms' })

    expect(thrown).toBe(true)
    expect(status).toBe(404)
  })
})

describe('caching', () => {
  test('public pages send a short shared max-age and an ETag that follows the content', async () => {
    content.write('blog/a.mdx', 'title: A\ndescription: d\ndate: 2026-01-01')

    const first = await callLoader(blogLoader, { url: '/blog' })
    const same = await callLoader(blogLoader, { url: '/blog' })
    content.write('blog/b.mdx', 'title: B\ndescription: d\ndate: 2026-01-02')
    const changed = await callLoader(blogLoader, { url: '/blog' })

    expect(first.headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(first.headers.get('Vary')).toBe('Cookie')
    expect(first.headers.get('ETag')).toMatch(/^W\/".+"$/)
    expect(same.headers.get('ETag')).toBe(first.headers.get('ETag'))
    expect(changed.headers.get('ETag')).not.toBe(first.headers.get('ETag'))
  })

  test('a signed-in visitor gets a private page; the theme alone keeps it public but changes the ETag', async () => {
    content.write('blog/a.mdx', 'title: A\ndescription: d\ndate: 2026-01-01')

    const anonymous = await callLoader(blogLoader, { url: '/blog' })
    const dark = await callLoader(blogLoader, { url: '/blog', headers: { Cookie: 'theme=dark' } })
    const signedIn = await callLoader(blogLoader, {
      url: '/blog',
      headers: { Cookie: 'theme=dark; tw_session=abc' },
    })

    expect(dark.headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(dark.headers.get('ETag')).not.toBe(anonymous.headers.get('ETag'))
    expect(signedIn.headers.get('Cache-Control')).toBe('private, max-age=0, must-revalidate')
  })
})

describe('/sitemap.xml, /robots.txt, /blog/rss.xml', () => {
  beforeEach(() => {
    content.write('docs/index.mdx', doc('Home'))
    content.write('docs/guides/deploy.mdx', doc('Deploy'))
    content.write(
      'blog/fish.mdx',
      'title: Fish & Chips <3\ndescription: "Salt & vinegar: <b>yes</b>"\ndate: 2026-02-03\nauthor: "O\'Brien"\ntags: [food & drink]',
    )
    content.write('blog/first.mdx', 'title: First\ndescription: d\ndate: 2026-01-01')
  })

  test('the sitemap is well-formed XML listing every public page, doc and post by absolute URL', async () => {
    const { status, headers, data } = await callLoader(sitemapLoader, { url: '/sitemap.xml' })
    const xml = String(data)

    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
    expect(xmlProblem(xml)).toBeNull()
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
    const base = 'https://threadwork.example'
    expect(locations).toEqual([
      `${base}/`,
      `${base}/showcase`,
      `${base}/blog`,
      `${base}/docs`,
      `${base}/changelog`,
      `${base}/pricing`,
      `${base}/support`,
      `${base}/terms`,
      `${base}/privacy`,
      // The 'index' doc is /docs itself.
      `${base}/docs/guides/deploy`,
      `${base}/blog/fish`,
      `${base}/blog/first`,
    ])
    expect(xml).toContain(`<url><loc>${base}/blog/fish</loc><lastmod>2026-02-03</lastmod></url>`)
  })

  test('the feed is well-formed RSS 2.0, newest first, with every special character escaped', async () => {
    const { status, headers, data } = await callLoader(rssLoader, { url: '/blog/rss.xml' })
    const xml = String(data)

    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toBe('application/rss+xml; charset=utf-8')
    expect(xmlProblem(xml)).toBeNull()
    expect(xml).toContain('<rss version="2.0"')
    expect(xml).toContain('<link>https://threadwork.example/blog</link>')
    expect(xml).toContain(
      '<atom:link href="https://threadwork.example/blog/rss.xml" rel="self" type="application/rss+xml"/>',
    )
    const titles = [...xml.matchAll(/<item>\s*<title>([^<]*)<\/title>/g)].map((match) => match[1])
    expect(titles).toEqual(['Fish &amp; Chips &lt;3', 'First'])
    expect(xml).toContain('<description>Salt &amp; vinegar: &lt;b&gt;yes&lt;/b&gt;</description>')
    expect(xml).toContain('<dc:creator>O&apos;Brien</dc:creator>')
    expect(xml).toContain('<category>food &amp; drink</category>')
    expect(xml).toContain('<pubDate>Tue, 03 Feb 2026 00:00:00 GMT</pubDate>')
    expect(xml).toContain('<guid isPermaLink="true">https://threadwork.example/blog/fish</guid>')
  })

  test('robots.txt points at the sitemap and keeps crawlers out of the API and private pages', async () => {
    const { data, headers } = await callLoader(robotsLoader, { url: '/robots.txt' })
    const lines = String(data).split('\n')

    expect(headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(lines).toContain('User-agent: *')
    expect(lines).toContain('Disallow: /api/')
    expect(lines).toContain('Disallow: /dashboard')
    expect(lines).toContain('Sitemap: https://threadwork.example/sitemap.xml')
  })

  test('a reader that has the current feed gets a bodiless 304', async () => {
    const first = await callLoader(rssLoader, { url: '/blog/rss.xml' })
    const etag = first.headers.get('ETag') ?? ''

    const again = await callLoader(rssLoader, { url: '/blog/rss.xml', headers: { 'If-None-Match': etag } })

    expect(first.headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(again.status).toBe(304)
    expect(again.data).toBeNull()
  })
})

describe('the XML check the tests above rely on', () => {
  test.each([
    ['<a>fish & chips</a>', "unescaped '&'"],
    ['<a><b></a></b>', '</a> closes <b>'],
    ['<a>1 < 2</a>', "'<' inside a tag"],
    ['<a href=x></a>', 'bad attribute syntax'],
    ['<a></a><b></b>', 'more than one root element'],
    ['<a>', 'never closed'],
  ])('rejects %s', (xml, problem) => {
    expect(xmlProblem(xml)).toContain(problem)
  })

  test('accepts a small well-formed document', () => {
    expect(xmlProblem('<?xml version="1.0"?>\n<a x="1" y=\'2\'><b/>&amp; &#38; text</a>\n')).toBeNull()
  })
})
