import { type RouterContextProvider, redirect } from 'react-router'
import { database } from '~/db/client.server'
import { createSession } from '~/services/sessions.server'
import { redirectWithToast, type ToastInput } from '~/toast.server'
import { clientIp } from './client-ip.server'
import { sessionCookie } from './session-cookie.server'

/**
 * Starts a session for a user who just proved who they are (password, OAuth, reset link) and
 * returns the cookie to send. Every way in ends here.
 */
export async function startSession(
  userId: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const session = await createSession(database(), userId, {
    userAgent: request.headers.get('User-Agent'),
    ip: clientIp(request, context),
  })
  return { session, cookie: sessionCookie(session.token) }
}

/** Signs in and goes on to `to` (already checked to be a local path), with an optional toast. */
export async function redirectSignedIn(
  userId: string,
  to: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
  toast?: ToastInput,
) {
  const { cookie } = await startSession(userId, request, context)
  const headers = new Headers({ 'Set-Cookie': cookie })
  return toast ? redirectWithToast(to, toast, { headers }) : redirect(to, { headers })
}
