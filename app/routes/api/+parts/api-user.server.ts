import type { RouterContextProvider } from 'react-router'
import { getUser } from '~/auth/context.server'

/** The chat's API endpoints answer a signed-out caller 401 JSON, never a redirect (as /api/rpc does). */
export async function requireApiUser(request: Request, context: Readonly<RouterContextProvider>) {
  const user = await getUser(request, context)
  if (!user) {
    throw Response.json({ code: 'UNAUTHORIZED', message: 'You need to sign in to do that.' }, { status: 401 })
  }
  return user
}
