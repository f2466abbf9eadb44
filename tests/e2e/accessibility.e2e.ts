import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

const PAGES = [
  ['home', '/'],
  ['status', '/tss'],
  ['not-found', '/no-such-page'],
] as const

test.describe('no serious or critical accessibility violations', () => {
  // axe runs as a script inside the page, which the JavaScript-off project forbids. The markup it
  // checks is the server's in both projects; the js-off journeys prove that markup works.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe needs to run a script in the page')

  for (const theme of ['light', 'dark'] as const) {
    for (const [name, path] of PAGES) {
      test(`${name} page, ${theme} theme`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: 'theme', value: theme, url: baseURL ?? '' }])
        await page.goto(path)
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
        const { violations } = await new AxeBuilder({ page }).analyze()
        const serious = violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({
            rule: violation.id,
            impact: violation.impact,
            help: violation.help,
            nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
          }))
        expect(serious).toEqual([])
      })
    }
  }
})
