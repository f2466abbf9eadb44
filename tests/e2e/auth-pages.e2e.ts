import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

/**
 * The sign-in and sign-up pages as a person meets them: the layout holds together with
 * JavaScript on and off, and client-side validation runs inside the Content-Security-Policy.
 */

const FORM_PAGES = [
  ['/login', 'E-mail', 'Sign in'],
  ['/signup', 'Name', 'Create account'],
] as const

for (const [path, firstLabel] of FORM_PAGES) {
  test(`${path}: the "or" line between the provider buttons and the form overlaps neither`, async ({
    page,
  }) => {
    await page.goto(path)
    const divider = await boxOf(page.getByText('or', { exact: true }))
    const label = await boxOf(page.locator('form label').first())
    const lastProvider = await boxOf(page.getByRole('button', { name: /^Continue with / }).last())
    await expect(page.locator('form label').first()).toHaveText(firstLabel)

    // Apart, with room to breathe: at least 8 px on either side.
    expect(label.y - (divider.y + divider.height)).toBeGreaterThanOrEqual(8)
    expect(divider.y - (lastProvider.y + lastProvider.height)).toBeGreaterThanOrEqual(8)
  })
}

test.describe('client-side validation breaks no CSP rule', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'validation in the browser needs JavaScript')

  for (const [path, , submit] of FORM_PAGES) {
    test(`${path}, loaded and submitted empty`, async ({ page }) => {
      const violations = await watchCspViolations(page)
      await page.goto(path)
      await page.waitForFunction(() => '__reactRouterRouteModules' in window)
      await page.waitForLoadState('networkidle')

      // Submitting empty parses the form with zod in the browser: errors appear, no request leaves.
      await page.getByRole('button', { name: submit, exact: true }).click()
      await expect(page.getByText(/is required|Enter an e-mail/i).first()).toBeVisible()

      expect(await violations()).toEqual([])
    })
  }
})

async function boxOf(locator: ReturnType<Page['locator']>) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not visible')
  return box
}

/** Collects CSP violations, both as console messages and as `securitypolicyviolation` events. */
async function watchCspViolations(page: Page) {
  const messages: string[] = []
  page.on('console', (message) => {
    if (
      /Content Security Policy|Refused to (load|execute|evaluate|apply|connect|frame)|unsafe-eval/i.test(
        message.text(),
      )
    ) {
      messages.push(message.text())
    }
  })
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      w.cspViolations.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      )
    })
  })
  return async () => [
    ...messages,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ]
}
