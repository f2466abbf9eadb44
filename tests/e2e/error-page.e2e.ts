import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

/**
 * Real server errors, reached the way a browser reaches them: a form POSTs to /tss.
 *
 * - Without the CSRF token the app's pages hand out, the root's middleware refuses it (403), so
 *   the root's error boundary answers: its way out is 'Home'.
 * - With a token, the request reaches /tss, which has no action: React Router answers 405
 *   through that route's error boundary, whose way out is 'Go Back'.
 *
 * The form cannot live on a data: URL: React Router refuses a cross-origin document POST (it
 * compares Origin with the URL) with a bare 400 before any route runs. So Playwright serves the
 * one-button form page at the app's own origin; the POST and everything after it go to the real
 * server.
 */
const FORM_PATH = '/e2e/form-posting-to-tss'

/** The token the sign-in page gives this browser, as any of the app's forms would carry. */
async function csrfTokenForThisBrowser(page: Page) {
  await page.goto('/login')
  const field = page.locator('input[type="hidden"][name="csrf"]')
  return (await field.count()) > 0 ? ((await field.first().getAttribute('value')) ?? '') : ''
}

async function postToTss(page: Page, csrfToken: string) {
  await page.route(
    (url) => url.pathname === FORM_PATH,
    (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>Form</title>
          <form method="post" action="/tss">
            <input type="hidden" name="csrf" value="${csrfToken}"><button>Go</button>
          </form></html>`,
      }),
  )
  await page.goto(FORM_PATH)
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/tss',
  )
  await page.getByRole('button', { name: 'Go' }).click()
  return answer
}

/** The error screen (docs/product-rules.md §4): a fallback title, details folded away, never a stack trace. */
async function expectErrorScreen(page: Page, status: number) {
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { name: 'Something went wrong!' })).toBeVisible()
  await expect(main.getByText(String(status))).toBeHidden()
  await main.getByText('Show Error').click()
  await expect(main.getByText(new RegExp(`^${status}\\b`))).toBeVisible()
  await expect(main.getByText('Hide Error')).toBeVisible()
  await expect(main.getByText('Show Error')).toBeHidden()
  await expect(main).not.toContainText(/\bat .+:\d+:\d+|You made a POST request/)
  await main.getByText('Hide Error').click()
  await expect(main.getByText(new RegExp(`^${status}\\b`))).toBeHidden()
}

async function expectTryAgainToRecover(page: Page) {
  // Clicked while the app hydrates, the button can be neither the plain form nor React's yet:
  // click once the page has settled, as a person would.
  await page.waitForLoadState('networkidle')
  await page.getByRole('main').getByRole('button', { name: 'Try Again' }).click()
  await expect(page.getByRole('heading', { name: 'All systems operational' })).toBeVisible()
  await expect(page.getByText('Something went wrong!')).toHaveCount(0)
}

test.describe('an error in the root route', () => {
  test('shows the error screen with a way home', async ({ page }) => {
    const answer = await postToTss(page, '')
    expect(answer.status()).toBe(403)
    await expectErrorScreen(page, 403)
    const main = page.getByRole('main')
    await expect(main.getByRole('link', { name: 'Go Back' })).toHaveCount(0)
    await main.getByRole('link', { name: 'Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('heading', { name: 'Tasks, talked through.' })).toBeVisible()
  })

  test('"Try Again" loads the page again, healthy this time', async ({ page }) => {
    await postToTss(page, '')
    await expect(page.getByRole('heading', { name: 'Something went wrong!' })).toBeVisible()
    await expectTryAgainToRecover(page)
  })
})

test.describe('an error in a page route', () => {
  let csrfToken = ''
  test.beforeEach(async ({ page }) => {
    csrfToken = await csrfTokenForThisBrowser(page)
    test.skip(!csrfToken, 'needs a page that gives anonymous visitors a CSRF token (the sign-in page)')
  })

  test('shows the error screen with a way back', async ({ page }) => {
    const answer = await postToTss(page, csrfToken)
    expect(answer.status()).toBe(405)
    await expectErrorScreen(page, 405)
    const main = page.getByRole('main')
    await expect(main.getByRole('link', { name: 'Go Back' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Home' })).toHaveCount(0)
  })

  test('"Try Again" loads the page again, healthy this time', async ({ page }) => {
    await postToTss(page, csrfToken)
    await expect(page.getByRole('heading', { name: 'Something went wrong!' })).toBeVisible()
    await expectTryAgainToRecover(page)
  })

  test('"Go Back" goes back in history', async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, 'history back needs JavaScript; without it the link leads home')
    await postToTss(page, csrfToken)
    // Until the app has hydrated, the link is the plain link home (what it is without JavaScript):
    // click once the page has settled, as a person would.
    await page.waitForLoadState('networkidle')
    await page.getByRole('main').getByRole('link', { name: 'Go Back' }).click()
    await expect(page).toHaveURL(new RegExp(`${FORM_PATH}$`))
    await expect(page.getByRole('button', { name: 'Go' })).toBeVisible()
  })

  test('"Go Back" without JavaScript is a link home', async ({ page, javaScriptEnabled }) => {
    test.skip(javaScriptEnabled, 'with JavaScript the link goes back in history')
    await postToTss(page, csrfToken)
    await expect(page.getByRole('main').getByRole('link', { name: 'Go Back' })).toHaveAttribute('href', '/')
  })
})
