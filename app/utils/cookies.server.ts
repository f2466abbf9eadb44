import { env } from '~/env.server'

/**
 * The rules every cookie we set follows: the session's, the anonymous id's, the OAuth flow's, the
 * toast's and the theme's. Path=/; SameSite=Lax, so they are sent on top-level navigations (OAuth
 * callbacks and links from e-mails keep the session); Secure whenever the site is served over
 * https. React Router's cookie storage (toasts) and remix-auth's strategies (OAuth state) take
 * their attributes from `cookieAttributes()`, everything else is written by `serializeCookie`.
 */

/** The one rule for `Secure`: production behind https (a local production build on http must still sign in). */
export function isSecureSite() {
  return env().isProduction && env().BASE_URL.startsWith('https:')
}

/** Path, SameSite and Secure, in the shape React Router's `createCookie` options take. */
export function cookieAttributes() {
  return { path: '/', sameSite: 'lax' as const, secure: isSecureSite() }
}

/** Reads one cookie from a Cookie header (values are URL-encoded by `serializeCookie`). */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index === -1) continue
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** `httpOnly: false` only for a cookie the browser's own script must read (the theme). */
type CookieOptions = { maxAgeSeconds: number; httpOnly?: boolean }

export function serializeCookie(
  name: string,
  value: string,
  { maxAgeSeconds, httpOnly = true }: CookieOptions,
) {
  const { path, secure } = cookieAttributes()
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${path}`,
    `Max-Age=${maxAgeSeconds}`,
    'SameSite=Lax',
  ]
  if (httpOnly) parts.push('HttpOnly')
  if (secure) parts.push('Secure')
  return parts.join('; ')
}

export function expireCookie(name: string) {
  return serializeCookie(name, '', { maxAgeSeconds: 0 })
}
