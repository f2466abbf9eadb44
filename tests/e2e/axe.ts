import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'

/**
 * The one axe check of the browser suite: a page fails on any serious or critical finding, with
 * every rule axe runs by default (label-in-name included). Each finding names its rule, the
 * nodes and what to fix, so a failure reads without opening a trace.
 */
export async function expectNoSeriousA11yViolations(page: Page, where = page.url()) {
  expect(await seriousA11yViolations(page), where).toEqual([])
}

/** The serious and critical findings on the page as it is now, readable in a test's diff. */
export async function seriousA11yViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }))
}

/**
 * axe runs as a script inside the page, which the JavaScript-off project forbids. The markup it
 * checks is the server's in both projects; the js-off journeys prove that markup works.
 */
export function skipWithoutJavaScript() {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe needs to run a script in the page')
}
