import { createHmac, timingSafeEqual } from 'node:crypto'
import { env } from '~/env.server'
import { readFormData } from '~/utils/form-data.server'

/** How long a CSRF token is valid (docs/product-rules.md §2). */
export const CSRF_TOKEN_TTL_MS = 60 * 60 * 1000
export const CSRF_HEADER = 'x-csrf-token'
export const CSRF_FIELD = 'csrf'
export const INVALID_CSRF_MESSAGE = 'Invalid CSRF token'

/**
 * A token is `<expiry>.<HMAC(secret, binding.expiry)>`, bound to the session (or, before sign-in,
 * to an anonymous cookie). Stateless: any instance with the same secret can check it, and a token
 * stolen from one browser is useless with another browser's cookies.
 */
export function issueCsrfToken(binding: string, now = Date.now()) {
  const expiresAt = now + CSRF_TOKEN_TTL_MS
  return `${expiresAt.toString(36)}.${sign(binding, expiresAt)}`
}

export function isValidCsrfToken(token: string | null | undefined, binding: string, now = Date.now()) {
  if (!token) return false
  const [expiry, signature] = token.split('.')
  if (!expiry || !signature) return false
  const expiresAt = Number.parseInt(expiry, 36)
  if (!Number.isFinite(expiresAt) || expiresAt <= now || expiresAt > now + CSRF_TOKEN_TTL_MS) return false
  const expected = Buffer.from(sign(binding, expiresAt))
  const actual = Buffer.from(signature)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

function sign(binding: string, expiresAt: number) {
  return createHmac('sha256', env().SESSION_SECRET).update(`csrf:${binding}.${expiresAt}`).digest('base64url')
}

/**
 * Reads the token a request carries: the header, else the hidden form field. The form is read
 * through `readFormData`, so the action that follows gets the same parse instead of a second
 * copy of the body.
 */
export async function csrfTokenFromRequest(request: Request): Promise<string | null> {
  const header = request.headers.get(CSRF_HEADER)
  if (header) return header
  const form = await readFormData(request).catch(() => null)
  const value = form?.get(CSRF_FIELD)
  return typeof value === 'string' ? value : null
}

/** A cross-site Origin is refused outright; a missing one (old browsers, curl) falls to the token. */
export function isAllowedOrigin(request: Request, url: URL) {
  const origin = request.headers.get('Origin')
  if (!origin || origin === 'null') return origin === null
  return origin === url.origin || origin === new URL(env().BASE_URL).origin
}
