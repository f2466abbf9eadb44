import { data, type MiddlewareFunction } from 'react-router'
import { requestInfoContext } from '~/utils/request-info.server'
import { getAuth } from './context.server'
import { csrfTokenFromRequest, INVALID_CSRF_MESSAGE, isAllowedOrigin, isValidCsrfToken } from './csrf.server'
import { rememberOwnWrites } from './own-writes.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Paths that check CSRF themselves or need none: /api/rpc checks it per procedure (reads may be
 * POSTed, only mutations need a token); /mcp takes only a bearer token, which no browser sends by
 * itself, never a cookie; signed webhooks carry a signature instead of a browser
 * session; the theme switch only sets a display-preference cookie (what a GET link could do), and
 * exempting it keeps public pages free of per-visitor tokens, hence cacheable.
 */
const CHECKED_ELSEWHERE = ['/api/rpc/', '/mcp', '/api/stripe/webhook', '/resources/theme']

/**
 * Runs before every loader and action: resolves the session once (`resolveSession`, which on an
 * embedded replica first catches up with the person's own last write), refuses mutations without a
 * valid CSRF token (or from a foreign Origin), and sends any cookie the session needs renewed, and
 * the position of what this request wrote.
 */
export const authMiddleware: MiddlewareFunction<Response> = async ({ request, context, pattern }, next) => {
  // The route the router matched, by its pattern (never the URL), for the request's log line,
  // metrics and span (server/app.ts).
  const info = context.get(requestInfoContext)
  if (info) info.route = pattern.startsWith('/') ? pattern : `/${pattern}`
  const auth = await getAuth(request, context)
  const url = new URL(request.url)

  if (!SAFE_METHODS.has(request.method) && !CHECKED_ELSEWHERE.some((path) => url.pathname.startsWith(path))) {
    // The body is read only for a same-origin request from a browser that has a token at all.
    const isTrusted =
      isAllowedOrigin(request, url) &&
      auth.csrfBinding !== null &&
      isValidCsrfToken(await csrfTokenFromRequest(request), auth.csrfBinding)
    if (!isTrusted) {
      if (url.pathname.startsWith('/api/')) {
        throw Response.json({ code: 'INVALID_CSRF_TOKEN', message: INVALID_CSRF_MESSAGE }, { status: 403 })
      }
      throw data(INVALID_CSRF_MESSAGE, { status: 403 })
    }
  }

  let { result: response, cookie: position } = await rememberOwnWrites(next)
  if (position) auth.setCookies.push(position)
  if (auth.setCookies.length > 0) {
    // Response.redirect() (and any fetched response) has immutable headers; a copy takes cookies.
    response = new Response(response.body, response)
    for (const cookie of auth.setCookies) response.headers.append('Set-Cookie', cookie)
  }
  return response
}
