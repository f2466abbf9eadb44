import { SESSION_MAX_AGE_MS } from '~/services/sessions.server'
import { expireCookie, serializeCookie } from '~/utils/cookies.server'

/** The cookie that carries a session's secret; the sessions service keeps only its hash. */
export const SESSION_COOKIE = 'tw_session'

/** Sets (or renews) the session cookie for as long as the session lives. */
export function sessionCookie(token: string) {
  return serializeCookie(SESSION_COOKIE, token, { maxAgeSeconds: SESSION_MAX_AGE_MS / 1000 })
}

export function clearSessionCookie() {
  return expireCookie(SESSION_COOKIE)
}
