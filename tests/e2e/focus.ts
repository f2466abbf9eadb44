import type { Page } from '@playwright/test'

/** What has the focus: its id, else its accessible name or text ('body' when nothing does). */
export function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'body'
    return element.id || element.getAttribute('aria-label') || element.textContent?.trim() || element.tagName
  })
}
