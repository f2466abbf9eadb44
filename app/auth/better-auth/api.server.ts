import {
  POST_ENDPOINTS as ACCOUNT_ENDPOINTS,
  GET_ENDPOINTS as ACCOUNT_GET_ENDPOINTS,
  type BetterAuthArgs,
} from './endpoints.server'
import { ORGANIZATION_ENDPOINTS } from './organization.server'
import { ORGANIZATION_PEOPLE_ENDPOINTS } from './organization-people.server'
import { errorResponse, json } from './responses.server'
import { TWO_FACTOR_ENDPOINTS } from './two-factor.server'

const GET_ENDPOINTS = {
  ...ACCOUNT_GET_ENDPOINTS,
  ...ORGANIZATION_ENDPOINTS.GET,
  ...ORGANIZATION_PEOPLE_ENDPOINTS.GET,
}
const POST_ENDPOINTS = {
  ...ACCOUNT_ENDPOINTS,
  ...TWO_FACTOR_ENDPOINTS,
  ...ORGANIZATION_ENDPOINTS.POST,
  ...ORGANIZATION_PEOPLE_ENDPOINTS.POST,
}

/**
 * /api/auth: the paths and JSON shapes of the better-auth client, so that client works unchanged
 * against Threadwork. A thin adapter: every endpoint calls the service the HTML forms use (accounts,
 * two-factor, workspaces as the organization plugin's organizations).
 * Mutations carry `x-csrf-token` (checked by the root middleware, like every other POST).
 */

/** Answers a request to /api/auth/<path>: its endpoint, else 405 with `Allow`, else 404. */
export async function answerBetterAuth(args: BetterAuthArgs) {
  const path = args.params['*'] ?? ''
  // HEAD is GET without the body, which React Router drops.
  const method = args.request.method === 'HEAD' ? 'GET' : args.request.method
  const endpoint =
    method === 'GET' ? GET_ENDPOINTS[path] : method === 'POST' ? POST_ENDPOINTS[path] : undefined
  if (!endpoint) {
    const allowed = [GET_ENDPOINTS[path] ? 'GET' : null, POST_ENDPOINTS[path] ? 'POST' : null].filter(
      (name) => name !== null,
    )
    return allowed.length > 0
      ? json(
          { code: 'METHOD_NOT_ALLOWED', message: `Use ${allowed.join(' or ')} for /api/auth/${path}` },
          405,
          { Allow: allowed.join(', ') },
        )
      : json({ code: 'NOT_FOUND', message: 'Not found' }, 404)
  }
  try {
    return await endpoint(args)
  } catch (error) {
    return errorResponse(error)
  }
}
