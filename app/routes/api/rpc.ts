import { callerOf, callerRefusalResponse, getAuth, isCallerRefusal } from '~/auth/context.server'
import { CSRF_HEADER, isAllowedOrigin, isValidCsrfToken } from '~/auth/csrf.server'
import { RETRY_AFTER_SECONDS } from '~/db/unavailable.server'
import { handleRpc } from '~/rpc/handler.server'
import { withHttpCaching } from '~/rpc/http-cache.server'
import { answerRead } from '~/rpc/versioned-reads.server'
import type { Route } from './+types/rpc'

/**
 * The RPC endpoint (docs/product-rules.md §5): oRPC's RPC protocol over the same services the route modules
 * use. A session cookie authenticates, and its mutations must also carry `x-csrf-token`; or a
 * personal API token as `Authorization: Bearer` (`callerOf`), whose mutations need write scope. GET serves read
 * procedures, POST everything, any other method is 405; it never redirects — an anonymous caller of a protected
 * procedure gets 401. GET answers carry an ETag, so polling clients get 304 while nothing changed;
 * the reads pages poll take it from their version, without running the procedure.
 */
async function answer({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const caller = await callerOf(request, context)
  if (isCallerRefusal(caller)) return callerRefusalResponse(caller)
  const auth = await getAuth(request, context)
  const isCsrfValid =
    caller.token === null &&
    auth.csrfBinding !== null &&
    isAllowedOrigin(request, new URL(request.url)) &&
    isValidCsrfToken(request.headers.get(CSRF_HEADER), auth.csrfBinding)
  // HEAD is GET without the body (React Router drops it); the protocol itself knows only GET.
  const rpcRequest = request.method === 'HEAD' ? new Request(request, { method: 'GET' }) : request
  const handle = async () => {
    const response =
      (await handleRpc(rpcRequest, { user: caller.user, isCsrfValid, tokenScope: caller.token?.scope })) ??
      Response.json({ code: 'NOT_FOUND', message: 'No such procedure' }, { status: 404 })
    // A database out of reach (app/db/unavailable.server.ts): say when to come back.
    if (response.status === 503) response.headers.set('Retry-After', String(RETRY_AFTER_SECONDS))
    return response
  }
  if (rpcRequest.method !== 'GET') return withHttpCaching(request, await handle())
  return answerRead(request, caller.user, handle)
}

export async function loader(args: Route.LoaderArgs) {
  return answer(args)
}

export async function action(args: Route.ActionArgs) {
  return answer(args)
}
