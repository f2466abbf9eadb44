import { redirect } from 'react-router'
import { getAuth } from '~/auth/context.server'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { deleteSession } from '~/services/sessions.server'
import type { Route } from './+types/logout'

/**
 * Sign Out: ends the session and goes to /dashboard (which then asks the
 * signed-out visitor to sign in). A failure is only logged: the cookie is cleared regardless.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { session } = await getAuth(request, context)
  if (session) {
    try {
      await deleteSession(database(), session.id)
    } catch (error) {
      console.error('Signout failed', error)
    }
  }
  return redirect('/dashboard', { headers: { 'Set-Cookie': clearSessionCookie() } })
}

/** Signing out is a POST (a link or an <img> must not sign anyone out). */
export function loader() {
  return redirect('/')
}
