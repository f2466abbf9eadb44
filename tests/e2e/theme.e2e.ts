import type { BrowserContext, Page } from '@playwright/test'
import { computedStyle, lightness } from './computed-style'
import { expect, test } from './fixtures'

const themeCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === 'theme')?.value

const htmlClassIn = (document: string) => /<html[^>]*\sclass="([^"]*)"/.exec(document)?.[1] ?? ''

const isThemeAction = (url: URL | string) => new URL(url).pathname.startsWith('/resources/theme')

type ClassLogWindow = { isSameDocument?: boolean; classLog: [number, string][]; clickLog: number[] }

/** Records every change of the <html> class with its time, and marks the current document. */
async function watchHtmlClass(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as ClassLogWindow
    w.isSameDocument = true
    w.classLog = []
    // A click's own task adds the class; the observer's callback may run only after React's
    // render in that task, so the click's time (a capturing listener, first in the task) is when
    // the class went on, and the callback's time is only an upper bound.
    w.clickLog = []
    document.addEventListener('click', () => w.clickLog.push(performance.now()), true)
    new MutationObserver(() => {
      w.classLog.push([performance.now(), document.documentElement.className])
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
  })
}

test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'the plain form post is the no-JavaScript path')

  test('the toggle posts a form and the page comes back in the other theme', async ({ page, context }) => {
    await page.goto('/tss')
    const html = page.locator('html')
    await expect(html).not.toHaveClass(/\bdark\b/)

    const post = page.waitForRequest((r) => r.method() === 'POST' && isThemeAction(r.url()))
    await page.getByRole('button', { name: 'Switch to dark mode' }).click()
    await post
    // Back on the page it was posted from, now dark.
    await expect(page).toHaveURL(/\/tss$/)
    await expect(page.getByRole('heading', { name: 'All systems operational' })).toBeVisible()
    await expect(html).toHaveClass(/\bdark\b/)
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()
    expect(await themeCookie(context)).toBe('dark')

    await page.getByRole('button', { name: 'Switch to light mode' }).click()
    await expect(page.getByRole('button', { name: 'Switch to dark mode' })).toBeVisible()
    await expect(html).not.toHaveClass(/\bdark\b/)
    expect(await themeCookie(context)).toBe('light')
  })
})

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'switching in place needs JavaScript')

  test('the toggle switches at once, animates about 300 ms, and remembers the choice', async ({
    page,
    context,
  }) => {
    // Hold the POST back for a moment: the server's answer re-renders <html>, and it must not
    // land inside the animation this test measures.
    // (With JavaScript the fetcher posts to React Router's data URL, /resources/theme.data.)
    await page.route(isThemeAction, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      await route.continue()
    })
    await page.goto('/tss')
    const html = page.locator('html')
    await expect(html).not.toHaveClass(/\bdark\b/)
    // After hydration the button's label comes from the <html> class; wait for the app to run.
    await page.waitForFunction(() => '__reactRouterContext' in window && document.readyState === 'complete')
    await watchHtmlClass(page)

    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && isThemeAction(r.url()))
    const clickedAt = await page.evaluate(() => performance.now())
    await page.getByRole('button', { name: 'Switch to dark mode' }).click()
    // At once: read once, not polled, while the server has not even seen the post yet.
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')

    await expect
      .poll(() => page.evaluate(() => (window as unknown as ClassLogWindow).classLog))
      .toContainEqual([expect.any(Number), expect.not.stringContaining('theme-transition')])
    const { classLog: log, clickLog } = await page.evaluate(() => {
      const { classLog, clickLog } = window as unknown as ClassLogWindow
      return { classLog, clickLog }
    })
    const started = log.find(([, names]) => names.split(' ').includes('theme-transition'))
    const ended = log.find(([at, names]) => started && at > started[0] && !names.includes('theme-transition'))
    expect(started, `class changes: ${JSON.stringify(log)}`).toBeDefined()
    expect(ended).toBeDefined()
    // The click that added the class: the last one before the observer saw it.
    const startedAt = clickLog.filter((at) => started && at <= started[0]).at(-1) ?? started?.[0] ?? 0
    const [endedAt = 0, endClasses = ''] = ended ?? []
    expect(startedAt - clickedAt).toBeLessThan(1_000)
    expect(endedAt - startedAt).toBeGreaterThanOrEqual(280)
    expect(endedAt - startedAt).toBeLessThan(1_500)
    expect(endClasses.split(' ')).toContain('dark')

    // The cookie follows once the fetcher's post has finished; the document was never replaced.
    await saved
    await expect.poll(() => themeCookie(context)).toBe('dark')
    expect(await page.evaluate(() => (window as unknown as ClassLogWindow).isSameDocument)).toBe(true)

    // A reload is dark from the first byte: the server renders the class, so nothing flashes.
    const reloaded = await page.reload()
    expect(htmlClassIn((await reloaded?.text()) ?? '').split(' ')).toContain('dark')
    await expect(html).toHaveClass(/\bdark\b/)
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()

    // And back.
    await page.getByRole('button', { name: 'Switch to light mode' }).click()
    await expect(html).not.toHaveClass(/\bdark\b/)
    await expect.poll(() => themeCookie(context)).toBe('light')
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light')
  })
})

test('a dark system preference paints dark on the first visit, and the server renders it from the next', async ({
  playwright,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  // A dark OS setting, as Chromium sees it: the Sec-CH-Prefers-Color-Scheme hint the app asks
  // for (Accept-CH) and the prefers-color-scheme media query both say dark. Emulating only the
  // media query (colorScheme: 'dark') is not enough: Chromium then still sends the OS's "light"
  // hint, and the server rightly renders what the hint says.
  const { launchOptions } = testInfo.project.use
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions?.args ?? []), '--force-dark-mode'],
  })
  try {
    const context = await browser.newContext({ baseURL, javaScriptEnabled, colorScheme: 'dark' })
    const page = await context.newPage()
    const documentRequests: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documentRequests.push(request.url())
    })

    // The first visit: the CSS media query (and, with JavaScript, the boot script) paints dark.
    // No Critical-CH, so Chromium does not fetch the page a second time to send the hint.
    const first = await page.goto('/')
    expect(first?.headers()['critical-ch']).toBeUndefined()
    expect(first?.headers()['accept-ch']).toBe('Sec-CH-Prefers-Color-Scheme')
    expect(documentRequests).toHaveLength(1)
    expect(lightness(await computedStyle(page, 'body', 'background-color'))).toBeLessThan(0.4)
    expect(lightness(await computedStyle(page, 'body', 'color'))).toBeGreaterThan(0.6)

    // From the next request on, Chromium sends the hint it was asked for: dark from the first byte.
    const next = await page.goto('/tss')
    expect(htmlClassIn((await next?.text()) ?? '').split(' ')).toContain('dark')
    expect(documentRequests).toHaveLength(2)
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()
    // No theme cookie: the hint alone carried the preference. (The time-zone cookie every page
    // sets for the dashboard's weeks is not about the theme.)
    expect((await context.cookies()).filter((cookie) => cookie.name !== 'tz')).toEqual([])
  } finally {
    await browser.close()
  }
})

test('a light page really is light', async ({ page }) => {
  // The counterpart of the dark check above, so that check cannot pass on a page that is
  // always dark.
  await page.goto('/')
  expect(lightness(await computedStyle(page, 'body', 'background-color'))).toBeGreaterThan(0.8)
})
