import * as authRoute from '~/routes/api/auth'
import * as rpcRoute from '~/routes/api/rpc'
import { clientContext, respondThroughMiddleware } from './auth'
import { serveFetch, type TestServer } from './http-server'

/**
 * The JSON endpoints of the app, /api/rpc and /api/auth, as the server runs them: the root
 * middleware first (session, CSRF), then the route module's loader for GET and HEAD or its
 * action for the other methods React Router accepts (POST, PUT, PATCH, DELETE); any other
 * method is React Router's 405. Each request gets a client address of its own, so per-IP rate
 * limits never cross requests. An Error escaping the route is rethrown: over `serveApi` it
 * becomes the 500 a crashing server would answer.
 */

const DOORS = [
  { prefix: '/api/rpc/', module: rpcRoute },
  { prefix: '/api/auth/', module: authRoute },
] as const

const LOADER_METHODS = new Set(['GET', 'HEAD'])
const ACTION_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

async function answerApi(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const door = DOORS.find(({ prefix }) => url.pathname.startsWith(prefix))
  if (!door) return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 })
  const handler = LOADER_METHODS.has(request.method)
    ? door.module.loader
    : ACTION_METHODS.has(request.method)
      ? door.module.action
      : null
  if (!handler) return new Response(null, { status: 405 })
  const args = {
    request,
    url,
    params: { '*': decodePath(url.pathname.slice(door.prefix.length)) },
    context: clientContext(),
    pattern: `${door.prefix}*`,
  }
  return respondThroughMiddleware(handler, args)
}

/** Both endpoints on a free port, over real HTTP. */
export function serveApi(): Promise<TestServer> {
  return serveFetch(answerApi)
}

/** React Router decodes params, and keeps a path it cannot decode as it came. */
function decodePath(path: string) {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
