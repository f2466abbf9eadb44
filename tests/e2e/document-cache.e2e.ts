import { expect, test } from './fixtures'

/**
 * Public pages are rendered once per version for anonymous visitors and kept
 * (app/utils/document-cache.server.ts). What a visitor gets must still be theirs: a nonce of
 * their own response, their theme, and never anything of a signed-in person's.
 */

const nonceOf = (csp: string | undefined) => /script-src[^;]*'nonce-([^']+)'/.exec(csp ?? '')?.[1]

test('a kept page gets a new nonce per response, the one its CSP header names, in every place', async ({
  request,
}) => {
  const seen: string[] = []
  for (let i = 0; i < 3; i++) {
    const response = await request.get('/docs', { headers: { 'Cache-Control': 'no-cache' } })
    expect(response.status()).toBe(200)
    const nonce = nonceOf(response.headers()['content-security-policy'])
    expect(nonce).toBeTruthy()
    const html = await response.text()
    const scripts = html.match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    // No earlier response's nonce survives anywhere in this one (the page's data included).
    for (const earlier of seen) expect(html).not.toContain(earlier)
    seen.push(nonce as string)
  }
  expect(new Set(seen).size).toBe(3)
})

test("a signed-in person's page never reaches anonymous visitors, nor theirs the person", async ({
  request,
  pageFor,
  newPerson,
}) => {
  // A name the home page's own demo content does not have.
  const person = await newPerson('Quentin')
  // Anonymous first, so the kept page exists before the person asks.
  const before = await request.get('/')
  expect(await before.text()).not.toContain(person.email)

  const page = await pageFor(person)
  const mine = await page.goto('/')
  const myHtml = (await mine?.text()) ?? ''
  expect(myHtml).toContain(person.email)
  expect(myHtml).toContain(person.name)
  expect(mine?.headers()['cache-control']).not.toMatch(/public/)

  const after = await request.get('/')
  const html = await after.text()
  expect(html).not.toContain(person.email)
  expect(html).not.toContain(person.name)
  expect(after.headers()['cache-control']).toMatch(/public/)
})

test('the theme cookie picks its own kept page', async ({ request }) => {
  const htmlTag = async (cookie?: string) => {
    const response = await request.get('/docs', { headers: cookie ? { Cookie: cookie } : {} })
    return /<html[^>]*>/.exec(await response.text())?.[0] ?? ''
  }
  expect(await htmlTag('theme=dark')).toContain('class="dark"')
  expect(await htmlTag()).not.toContain('dark')
  expect(await htmlTag('theme=light')).toContain('class="light"')
  expect(await htmlTag('theme=dark')).toContain('class="dark"')
})
