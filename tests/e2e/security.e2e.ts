import { expect, test } from './fixtures'

test('documents carry the security headers', async ({ page }) => {
  const response = await page.goto('/')
  const headers = (await response?.allHeaders()) ?? {}
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['x-frame-options']).toBe('DENY')
  expect(headers['x-xss-protection']).toMatch(/^[01]/)
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  // The e2e server runs with NODE_ENV=production, where HSTS is on.
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/)
})

test("every script carries the nonce of the page's CSP, a new one per response", async ({
  page,
  request,
}) => {
  const nonceOf = (csp: string | undefined) => /script-src[^;]*'nonce-([^']+)'/.exec(csp ?? '')?.[1]

  const response = await page.goto('/')
  const nonce = nonceOf((await response?.headerValue('content-security-policy')) ?? undefined)
  expect(nonce).toBeTruthy()
  const csp = (await response?.headerValue('content-security-policy')) ?? ''
  expect(csp).toContain("object-src 'none'")
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)

  // The document as sent: every <script> the server rendered carries that nonce.
  const scripts = (await response?.text())?.match(/<script\b[^>]*>/g) ?? []
  expect(scripts.length).toBeGreaterThan(0)
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)

  // Each rendered response has its own (a fresh request: the browser may revalidate from its cache).
  const again = await request.get('/', { headers: { 'Cache-Control': 'no-cache' } })
  expect(nonceOf(again.headers()['content-security-policy'])).toMatch(/\S/)
  expect(nonceOf(again.headers()['content-security-policy'])).not.toBe(nonce)
})

test('loading the home page breaks no CSP rule', async ({ page, javaScriptEnabled }) => {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) {
      violations.push(message.text())
    }
  })
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      w.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  await page.goto('/')
  await expect(page.getByRole('banner')).toBeVisible()
  await page.waitForLoadState('networkidle')
  if (javaScriptEnabled) {
    // The app's own scripts ran (hydration), so the nonce let them in.
    await page.waitForFunction(() => '__reactRouterRouteModules' in window)
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([])
  }
  expect(violations).toEqual([])
})
