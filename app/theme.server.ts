import { readCookie } from '~/auth/cookies.server'
import { env } from '~/env.server'
import { isTheme, THEME_COOKIE, type Theme } from '~/theme'

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
  const secure = env().isProduction && env().BASE_URL.startsWith('https:') ? '; Secure' : ''
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`
}
