import { type RouterContextProvider, redirect } from 'react-router'
import { database } from '~/db/client.server'
import type { AdminActor } from '~/services/admin/audit.server'
import { signInAs, stopSignInAs } from '~/services/admin/people.server'
import { SESSION_MAX_AGE_MS } from '~/services/sessions.server'
import { expireCookie, readCookie, serializeCookie } from '~/utils/cookies.server'
import { clientIp } from './client-ip.server'
import { findSessionAnywhere, getAuth } from './context.server'
import { clearSessionCookie, SESSION_COOKIE, sessionCookie } from './session-cookie.server'

/**
 * "Sign in as" from the browser's side: the admin's own session cookie is kept aside while the
 * support session's cookie takes its place, and "Stop" (the banner's button) ends the support
 * session and hands the admin's back. The rules and the audit are the service's
 * (app/services/admin/people.server.ts).
 */
export const ADMIN_SESSION_COOKIE = 'tw_admin_session'

/** Where the admin lands as the person, and back in the console when they stop. */
const SUPPORT_LANDING = '/dashboard'

export async function startSupportSession(
  admin: AdminActor,
  userId: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const auth = await getAuth(request, context)
  const adminToken = readCookie(request.headers.get('Cookie'), SESSION_COOKIE)
  const session = await signInAs(database(), admin, userId, {
    userAgent: request.headers.get('User-Agent'),
    ip: clientIp(request, context),
  })
  // The admin's session renewed by this request must not overwrite the support session's cookie.
  auth.setCookies = auth.setCookies.filter((cookie) => !cookie.startsWith(`${SESSION_COOKIE}=`))
  const headers = new Headers()
  headers.append('Set-Cookie', sessionCookie(session.token))
  if (adminToken) {
    headers.append(
      'Set-Cookie',
      serializeCookie(ADMIN_SESSION_COOKIE, adminToken, { maxAgeSeconds: SESSION_MAX_AGE_MS / 1000 }),
    )
  }
  return redirect(SUPPORT_LANDING, { headers })
}

/**
 * Ends the support session this request carries and restores the admin's own, if it is still
 * theirs and live; else the browser is simply signed out. Null when this is no support session.
 */
export async function stopSupportSession(request: Request, context: Readonly<RouterContextProvider>) {
  const auth = await getAuth(request, context)
  if (!auth.session?.impersonatorId) return null
  const person = auth.session.user
  const adminId = await stopSignInAs(database(), auth.session.id, clientIp(request, context))
  auth.setCookies = auth.setCookies.filter((cookie) => !cookie.startsWith(`${SESSION_COOKIE}=`))
  const adminToken = readCookie(request.headers.get('Cookie'), ADMIN_SESSION_COOKIE)
  const adminSession = adminToken ? await findSessionAnywhere(adminToken) : null
  const headers = new Headers({ 'Set-Cookie': expireCookie(ADMIN_SESSION_COOKIE) })
  if (adminToken && adminSession && adminSession.user.id === adminId) {
    headers.append('Set-Cookie', sessionCookie(adminToken))
    return redirect(`/admin/people/${encodeURIComponent(person.id)}`, { headers })
  }
  headers.append('Set-Cookie', clearSessionCookie())
  return redirect('/login', { headers })
}
