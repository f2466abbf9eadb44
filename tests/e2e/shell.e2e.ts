import { expect, test } from './fixtures'

const SIGNED_OUT_LINKS = [
  ['Showcase', '/showcase'],
  ['Blog', '/blog'],
  ['Docs', '/docs'],
  ['Changelog', '/changelog'],
  ['Pricing', '/pricing'],
  ['Support', '/support'],
] as const

test('the home page renders the sticky 4rem header with the signed-out links', async ({ page }) => {
  await page.goto('/')
  const header = page.getByRole('banner')
  await expect(header).toHaveCSS('position', 'sticky')
  await expect(header).toHaveCSS('top', '0px')
  expect((await header.boundingBox())?.height).toBe(64)

  const logo = header.getByRole('link', { name: /^Threadwork/ })
  await expect(logo).toHaveAttribute('href', '/')

  const nav = header.getByRole('navigation', { name: 'Main' })
  const links = nav.getByRole('link')
  await expect(links).toHaveText(SIGNED_OUT_LINKS.map(([label]) => label))
  for (const [label, href] of SIGNED_OUT_LINKS) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href)
  }

  await expect(header.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
    'href',
    '/login?redirect=%2Fdashboard',
  )
})

test('the header stays on screen while the page scrolls', async ({ page }) => {
  // A short viewport, so even a short page scrolls under the header.
  await page.setViewportSize({ width: 1280, height: 300 })
  await page.goto('/')
  await page.mouse.wheel(0, 400)
  await expect
    .poll(() =>
      page
        .getByRole('banner')
        .boundingBox()
        .then((box) => box?.y),
    )
    .toBe(0)
  // The header did not scroll away: the page below it did.
  await expect(page.getByRole('heading', { name: 'Tasks, talked through.' })).not.toBeInViewport()
})

test('a header link is active on its own path and below it', async ({ page }) => {
  // Product rules §4: the path equals the link or starts with it (a 404 still shows the header).
  await page.goto('/docs/anything-below')
  const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Docs' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Blog' })).not.toHaveAttribute('aria-current', /.*/)
})

test('the document carries a title, a description and social-sharing metadata', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(/Threadwork/)
  const head = page.locator('head')
  await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', /\S/)
  await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', /Threadwork/)
  await expect(head.locator('meta[property="og:description"]')).toHaveAttribute('content', /\S/)
  await expect(head.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website')
  await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    /^http:\/\/127\.0\.0\.1:\d+\//,
  )
  await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', /summary/)
})

test('/tss tells people every system is operational', async ({ page }) => {
  const response = await page.goto('/tss')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: 'All systems operational' })).toBeVisible()
})

test('/healthz answers machines with JSON', async ({ request }) => {
  const response = await request.get('/healthz')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toContain('application/json')
  expect(await response.json()).toMatchObject({ status: 'ok', database: { reachable: true } })
})
