import type { Page } from '@playwright/test'

/**
 * Opens `url` with its scripts held back: the page is its server HTML until the returned
 * function lets them load, so a test can type into it before it hydrates.
 */
export async function gotoBeforeScripts(page: Page, url: string) {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released
    await route.continue()
  })
  await page.goto(url, { waitUntil: 'domcontentloaded' })
  return () => release()
}

/** A frame after the page hydrated, for any render that follows hydration. */
export function afterNextFrame(page: Page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))))
}
