import { xmlProblem } from '../helpers/xml'
import { expect, test } from './fixtures'
import { sitemapPaths } from './sitemap'

/**
 * The content pages of the built app — docs, search, blog, changelog, terms, privacy — and what
 * crawlers and feed readers fetch, with JavaScript on and off. They read the repository's own
 * content/ folder, the one the app ships with.
 */

const PAGES = [
  ['docs home', '/docs', 'Introduction — Docs | Threadwork', 'Introduction'],
  ['a doc', '/docs/getting-started', 'Getting started — Docs | Threadwork', 'Getting started'],
  ['docs search', '/docs?q=volume', 'Search results for “volume” | Threadwork', 'Search results'],
  ['blog', '/blog', 'Blog | Threadwork', 'Blog'],
  [
    'a post',
    '/blog/foundation',
    'Threadwork, step one: a foundation you can read | Threadwork',
    'Threadwork, step one: a foundation you can read',
  ],
  ['changelog', '/changelog', 'Changelog | Threadwork', 'Changelog'],
  ['terms', '/terms', 'Terms of Service | Threadwork', 'Terms of Service'],
  ['privacy', '/privacy', 'Privacy Policy | Threadwork', 'Privacy Policy'],
] as const

test.describe('content pages render with their title, heading and canonical URL', () => {
  for (const [name, path, title, heading] of PAGES) {
    test(name, async ({ page, baseURL }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      await expect(page).toHaveTitle(title)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      const canonical = `${baseURL}${path.split('?')[0]}`
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical)
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical)
      await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
        'content',
        'summary_large_image',
      )
    })
  }

  test('a missing doc is the not-found screen with a 404', async ({ page }) => {
    const response = await page.goto('/docs/no-such-doc')
    expect(response?.status()).toBe(404)
    await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible()
    // The docs' sidebar stays, so the way on is one click away.
    await expect(page.getByRole('navigation', { name: 'Documentation' })).toBeVisible()
  })

  test('a missing post is a 404', async ({ page }) => {
    const response = await page.goto('/blog/no-such-post')
    expect(response?.status()).toBe(404)
    await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible()
  })
})

test('no page in the sitemap shows a raw Markdown table row; the reference docs show real tables', async ({
  page,
  request,
}) => {
  // Many pages on two shared cores.
  test.setTimeout(180_000)
  const paths = await sitemapPaths(request)
  const rawRows: Record<string, string[]> = {}
  for (const path of paths) {
    await page.goto(path)
    // What a reader sees, code blocks left out (a shell pipe there is code, not a table).
    const lines = await page.locator('body').evaluate((body) => {
      const copy = body.cloneNode(true) as HTMLElement
      for (const code of copy.querySelectorAll('pre, script, style, noscript')) code.remove()
      return (copy.textContent ?? '').split('\n')
    })
    const raw = lines.filter((line) => /^\s*\|.*\|\s*$/.test(line) || /\|\s*:?-{3,}:?\s*\|/.test(line))
    if (raw.length > 0) rawRows[path] = raw
  }
  expect(rawRows).toEqual({})

  for (const path of ['/docs/configuration', '/docs/rpc', '/privacy']) {
    await page.goto(path)
    await expect(page.getByRole('table').first()).toBeVisible()
    expect(await page.getByRole('columnheader').count(), path).toBeGreaterThan(1)
  }
})

test.describe('docs', () => {
  test('the sidebar lists every doc and marks the current one', async ({ page }) => {
    await page.goto('/docs/configuration')
    const sidebar = page.getByRole('navigation', { name: 'Documentation' })
    await expect(sidebar.getByRole('link')).toHaveText([
      'Introduction',
      'Getting started',
      'Configuration',
      'Architecture',
      'RPC procedures',
      'Auth API',
      'Event streams',
      'AI chat',
      'Payments with Stripe',
      'Testing',
      'Deploying to Fly.io',
      'Scaling out with libSQL',
      'Writing content',
      'Tasks',
      'Workspaces',
      'Keyboard',
      'Accounts and sign-in',
      'Developer platform',
      'Webhooks',
      'Operations',
      'Admin console',
    ])
    await expect(sidebar.getByRole('link', { name: 'Configuration' })).toHaveAttribute('aria-current', 'page')
  })

  test('the table of contents links to the headings', async ({ page }) => {
    await page.goto('/docs/deployment')
    const toc = page.getByRole('navigation', { name: 'On this page' })
    await toc.getByRole('link', { name: 'Health checks' }).click()
    await expect(page).toHaveURL(/#health-checks$/)
    await expect(page.getByRole('heading', { name: 'Health checks' })).toBeInViewport()
  })

  test('search works as a plain form, with JavaScript on or off', async ({ page }) => {
    await page.goto('/docs')
    await page.getByRole('searchbox', { name: 'Search the docs' }).fill('embedded replica')
    await page.getByRole('button', { name: 'Search', exact: true }).click()

    await expect(page).toHaveURL(/\/docs\?q=embedded\+replica$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results')
    const results = page.getByRole('main').getByRole('listitem')
    await expect(results.first()).toBeVisible()
    await expect(page.getByRole('link', { name: 'Scaling out with libSQL' }).last()).toBeVisible()
    await expect(page.locator('main mark').first()).toBeVisible()
    await expect(page.getByRole('searchbox', { name: 'Search the docs' })).toHaveValue('embedded replica')

    await page.getByRole('main').getByRole('link', { name: 'Scaling out with libSQL', exact: true }).click()
    await expect(page).toHaveURL(/\/docs\/scaling-libsql$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scaling out with libSQL')
  })

  test('a search without results says so', async ({ page }) => {
    await page.goto('/docs?q=kubernetes')
    await expect(page.getByRole('status')).toHaveText('Nothing in the docs matches “kubernetes”.')
  })

  test('links inside a doc navigate without reloading the page when JavaScript runs', async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'client-side navigation needs JavaScript')
    await page.goto('/docs')
    await page.evaluate(() => {
      ;(window as Window & { stayed?: boolean }).stayed = true
    })
    await page.getByRole('main').getByRole('link', { name: 'Getting started', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Getting started')
    expect(await page.evaluate(() => (window as Window & { stayed?: boolean }).stayed)).toBe(true)
  })
})

test.describe('blog, changelog and legal pages', () => {
  test('the blog lists posts with author, date, reading time and tags, and links to each', async ({
    page,
  }) => {
    await page.goto('/blog')
    const first = page.getByRole('article').first()
    await expect(first.getByRole('heading')).toHaveText('Threadwork, step one: a foundation you can read')
    await expect(first).toContainText('The Threadwork team')
    await expect(first.locator('time')).toHaveAttribute('datetime', '2026-11-22T00:00:00.000Z')
    await expect(first).toContainText(/\d+ min read/)
    await expect(first.getByRole('list', { name: 'Tags' })).toContainText('announcements')
    await first.getByRole('link').first().click()
    await expect(page).toHaveURL(/\/blog\/foundation$/)
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article')
  })

  test('the changelog lists entries newest first', async ({ page }) => {
    await page.goto('/changelog')
    const times = await page.getByRole('main').locator('article time').all()
    const dates = await Promise.all(times.map(async (time) => (await time.getAttribute('datetime')) ?? ''))
    expect(dates.length).toBeGreaterThanOrEqual(3)
    expect(dates).toEqual([...dates].sort().reverse())
    const titles = await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents()
    expect(titles.at(-1)).toContain('Foundation: the server and the app shell')
  })

  test('terms and privacy show the configured support address', async ({ page }) => {
    for (const path of ['/terms', '/privacy']) {
      await page.goto(path)
      await expect(page.getByRole('link', { name: 'support@threadwork.dev' }).first()).toHaveAttribute(
        'href',
        'mailto:support@threadwork.dev',
      )
    }
  })
})

test.describe('for crawlers and feed readers', () => {
  test('the sitemap is XML that lists the public pages, the docs and the posts', async ({
    request,
    baseURL,
  }) => {
    const response = await request.get('/sitemap.xml')
    expect(response.headers()['content-type']).toBe('application/xml; charset=utf-8')
    const xml = await response.text()
    expect(xmlProblem(xml)).toBeNull()
    for (const path of [
      '/',
      '/docs',
      '/docs/getting-started',
      '/blog',
      '/blog/foundation',
      '/changelog',
      '/pricing',
    ]) {
      expect(xml).toContain(`<loc>${baseURL}${path}</loc>`)
    }
  })

  test('the RSS feed is XML with every post', async ({ request }) => {
    const response = await request.get('/blog/rss.xml')
    expect(response.headers()['content-type']).toBe('application/rss+xml; charset=utf-8')
    const xml = await response.text()
    expect(xmlProblem(xml)).toBeNull()
    expect(xml).toContain('<title>Threadwork, step one: a foundation you can read</title>')
    expect(xml).toContain('<title>Docs that compile once</title>')
  })

  test("the browser's own XML parser accepts both and finds the entries", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'DOMParser runs as a script in the page')
    await page.goto('/docs')
    const parsed = await page.evaluate(async () => {
      const parse = async (path: string) => {
        const text = await (await fetch(path)).text()
        return new DOMParser().parseFromString(text, 'application/xml')
      }
      const sitemap = await parse('/sitemap.xml')
      const feed = await parse('/blog/rss.xml')
      return {
        errors:
          sitemap.getElementsByTagName('parsererror').length +
          feed.getElementsByTagName('parsererror').length,
        urls: sitemap.getElementsByTagName('url').length,
        items: [...feed.getElementsByTagName('item')].map(
          (item) => item.getElementsByTagName('title')[0]?.textContent,
        ),
      }
    })
    expect(parsed.errors).toBe(0)
    expect(parsed.urls).toBeGreaterThan(15)
    expect(parsed.items[0]).toBe('Threadwork, step one: a foundation you can read')
    expect(parsed.items.length).toBeGreaterThanOrEqual(3)
  })

  test('robots.txt names the sitemap', async ({ request, baseURL }) => {
    const text = await (await request.get('/robots.txt')).text()
    expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
    expect(text).toContain('Disallow: /api/')
  })

  test('a page revalidated with its ETag comes back 304 without a body', async ({ request }) => {
    const first = await request.get('/docs/testing')
    const etag = first.headers().etag
    expect(first.headers()['cache-control']).toBe('public, max-age=60, s-maxage=300')
    expect(etag).toBeTruthy()
    const again = await request.get('/docs/testing', { headers: { 'If-None-Match': etag ?? '' } })
    expect(again.status()).toBe(304)
    expect(await again.text()).toBe('')
  })
})
