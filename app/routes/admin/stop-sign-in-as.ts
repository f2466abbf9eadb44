import { notFound } from '~/auth/admin.server'
import { stopSupportSession } from '~/auth/sign-in-as.server'
import type { Route } from './+types/stop-sign-in-as'

/**
 * POST /admin/sign-in-as/stop: the banner's "Stop" during a support session (app/auth/sign-in-as.server.ts).
 * Anyone not in a support session gets the console's 404, as on every admin URL.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return (await stopSupportSession(request, context)) ?? notFound()
}

export function loader() {
  return notFound()
}
