import { type BrowserContext, expect, type Page } from '@playwright/test'

/** The two themes every page is checked in. */
export const THEMES = ['light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

/** The theme cookie, as the toggle sets it: the server renders that theme from the first byte. */
export async function setThemeCookie(context: BrowserContext, baseURL: string, theme: Theme) {
  await context.addCookies([{ name: 'theme', value: theme, url: baseURL }])
}

/** Waits until the page shows the theme, so axe measures contrast in the right colours. */
export async function expectTheme(page: Page, theme: Theme) {
  await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
}
