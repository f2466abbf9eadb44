import { BEARER_CHALLENGE, callerOf, callerRefusalResponse, isCallerRefusal } from '~/auth/context.server'
import { handleMcp } from '~/mcp/server.server'
import type { Route } from './+types/mcp'

export const TOKEN_REQUIRED_MESSAGE =
  'The MCP server needs a personal API token: send it as Authorization: Bearer <token>. Make one in Settings → Developer.'

/**
 * The MCP endpoint: the Model Context Protocol's Streamable HTTP transport for AI agents
 * (app/mcp/server.server.ts). Only a personal API token opens it, never a session cookie, so it
 * needs no CSRF token (the root middleware leaves it alone). Stateless, so POST is the whole
 * protocol: there is no server-initiated stream to GET and no session to DELETE (405, which the
 * transport's clients expect). Bodies are bounded as at every endpoint (server/body-limits.ts).
 */
async function answer({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const caller = await callerOf(request, context)
  if (isCallerRefusal(caller)) return callerRefusalResponse(caller)
  if (!caller.token || !caller.user) {
    return callerRefusalResponse({
      status: 401,
      code: 'UNAUTHORIZED',
      message: TOKEN_REQUIRED_MESSAGE,
      headers: { 'WWW-Authenticate': BEARER_CHALLENGE, 'Cache-Control': 'no-store' },
    })
  }
  if (request.method !== 'POST') {
    return Response.json(
      { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
      { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } },
    )
  }
  return handleMcp(request, { user: caller.user, scope: caller.token.scope, timeZone: caller.timeZone })
}

export async function loader(args: Route.LoaderArgs) {
  return answer(args)
}

export async function action(args: Route.ActionArgs) {
  return answer(args)
}
