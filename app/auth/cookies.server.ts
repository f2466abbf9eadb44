import { env } from '~/env.server'

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

type CookieOptions = { maxAgeSeconds: number; httpOnly?: boolean }

/**
 * Our cookies are SameSite=Lax (sent on top-level navigations, so OAuth callbacks and links from
 * e-mails keep the session) and Secure whenever the site is served over https.
 */
export function serializeCookie(
  name: string,
  value: string,
  { maxAgeSeconds, httpOnly = true }: CookieOptions,
) {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'SameSite=Lax']
  if (httpOnly) parts.push('HttpOnly')
  if (isSecureSite()) parts.push('Secure')
  return parts.join('; ')
}

export function expireCookie(name: string) {
  return serializeCookie(name, '', { maxAgeSeconds: 0 })
}

export function isSecureSite() {
  return env().isProduction && env().BASE_URL.startsWith('https:')
}
