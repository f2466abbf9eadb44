import { isTheme, THEME_COOKIE, type Theme } from '~/theme'
import { readCookie, serializeCookie } from '~/utils/cookies.server'

/**
 * The theme to render: the user's stored choice, else the system preference Chromium sends as a
 * client hint, else null (the CSS media query and the boot script decide in the browser).
 */
export function themeFromRequest(request: Request): { theme: Theme | null; isStored: boolean } {
  const stored = readCookie(request.headers.get('Cookie'), THEME_COOKIE)
  if (isTheme(stored)) return { theme: stored, isStored: true }
  const hint = request.headers.get('Sec-CH-Prefers-Color-Scheme')?.replaceAll('"', '')
  return { theme: isTheme(hint) ? hint : null, isStored: false }
}

/**
 * A plain `theme=dark` cookie (not HttpOnly: the boot script mirrors it with local storage, and
 * it holds nothing secret).
 */
export function themeCookieHeader(theme: Theme) {
  return serializeCookie(THEME_COOKIE, theme, { maxAgeSeconds: 31536000, httpOnly: false })
}
