import type { MiddlewareFunction } from 'react-router'
import { kickOutbox } from './worker.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Wakes the outbox after every request that may have changed something. A mutation may have
 * queued e-mail (sign-up, reset, a mention); by the time the response comes back its transaction
 * has committed, so the worker can see the row now instead of at its next poll. Runs after the
 * auth middleware, so a request refused for its CSRF token wakes nothing.
 */
export const outboxMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next()
  if (!SAFE_METHODS.has(request.method)) kickOutbox()
  return response
}
