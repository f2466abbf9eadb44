import { expect, test } from './fixtures'

const PAGES = [
  { path: '/', title: 'Threadwork — tasks, talked through', heading: 'Tasks, talked through.' },
  { path: '/showcase', title: 'Showcase | Threadwork', heading: 'Showcase' },
  { path: '/pricing', title: 'Pricing | Threadwork', heading: 'Pricing' },
  { path: '/support', title: 'Support | Threadwork', heading: 'Support' },
] as const

test.describe('marketing pages', () => {
  for (const { path, title, heading } of PAGES) {
    test(`${path} has its title, description, canonical URL and heading`, async ({ page, baseURL }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      await expect(page).toHaveTitle(title)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/)
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}${path}`)
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    })
  }

  test('public pages may be cached briefly; the support form, which holds a token, may not', async ({
    request,
  }) => {
    for (const path of ['/', '/showcase']) {
      const response = await request.get(path)
      expect(response.headers()['cache-control'], path).toBe('public, max-age=60, s-maxage=300')
    }
    expect((await request.get('/support')).headers()['cache-control']).toBe('private, no-store')
    // With Stripe configured (as in this run), pricing's options are forms that carry a token.
    expect((await request.get('/pricing')).headers()['cache-control']).toBe('private, no-store')
  })

  test('an unchanged public page is answered 304 to a browser that has it', async ({ request }) => {
    for (const path of ['/', '/showcase']) {
      const first = await request.get(path)
      const etag = first.headers().etag
      expect(etag, path).toBeTruthy()
      const again = await request.get(path, { headers: { 'If-None-Match': etag ?? '' } })
      expect(again.status(), path).toBe(304)
    }
  })

  test('home shows the product and leads to sign-up, docs and pricing', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('img', { name: /task list.*Ship the public beta/ })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/signup')
    await expect(page.getByRole('link', { name: 'Read the docs' })).toHaveAttribute('href', '/docs')
    await expect(page.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing')
  })

  test('home stays light: no form or validation library in its scripts', async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'only scripts that run matter')
    const scripts: string[] = []
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text())
    })
    await page.goto('/', { waitUntil: 'networkidle' })
    expect(scripts.length).toBeGreaterThan(0)
    // zod's and conform's own error texts: present in their bundles, absent from ours.
    expect(scripts.join('\n')).not.toMatch(/Invalid input: expected|conform/)
  })

  test('the showcase lists projects built with the kit, with their links and tags', async ({ page }) => {
    await page.goto('/showcase')
    const card = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: 'Threadwork Docs' }) })
    await expect(card.getByRole('link', { name: 'Threadwork Docs' })).toHaveAttribute('href', '/docs')
    await expect(card.getByRole('list', { name: 'Tags' })).toContainText('MDX')
    await expect(page.getByRole('link', { name: 'Submit your project' })).toHaveAttribute('href', '/support')
  })
})
