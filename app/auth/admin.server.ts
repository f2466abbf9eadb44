import { data, type RouterContextProvider } from 'react-router'
import { env } from '~/env.server'
import type { AdminActor } from '~/services/admin/audit.server'
import type { SessionUser } from '~/services/session-user'
import { clientIp } from './client-ip.server'
import { getAuth } from './context.server'

/**
 * Who may use the admin console (/admin): a person whose verified address is in ADMIN_EMAILS,
 * in a session of their own (not one an admin opened as someone else). Everyone else gets the
 * same 404 as an unknown URL, on every page, its data and its actions, so the console's
 * existence tells an outsider nothing (docs/decisions/045-admin-console.md).
 */
function isAdmin(user: Pick<SessionUser, 'email' | 'emailVerified'>) {
  return user.emailVerified && env().ADMIN_EMAILS.includes(user.email.toLowerCase())
}

export function notFound(): never {
  throw data('Not Found', { status: 404 })
}

/** The admin behind this request, with the address their actions are audited from, else a 404. */
export async function requireAdmin(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<AdminActor> {
  const { user, session } = await getAuth(request, context)
  if (!user || !session || session.impersonatorId !== null || !isAdmin(user)) notFound()
  return { id: user.id, email: user.email, ip: clientIp(request, context) }
}
