import { handleRpc } from '~/rpc/handler.server'
import type { Route } from './+types/api.rpc'

/**
 * The RPC door (DESIGN.md §6.2): oRPC's RPC protocol over the same services the route modules
 * use. GET serves read procedures, POST everything; it never redirects.
 */
async function answer(request: Request) {
  // The signed-in user joins the context with accounts (Step 2).
  const response = await handleRpc(request, null)
  return response ?? Response.json({ error: 'No such procedure' }, { status: 404 })
}

export async function loader({ request }: Route.LoaderArgs) {
  return answer(request)
}

export async function action({ request }: Route.ActionArgs) {
  return answer(request)
}
