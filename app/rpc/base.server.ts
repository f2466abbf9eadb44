import { ORPCError, os, ValidationError } from '@orpc/server'
import { INVALID_CSRF_MESSAGE } from '~/auth/csrf.server'
import type { Database } from '~/db/client.server'
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '~/db/unavailable.server'
import type { ApiTokenScope } from '~/domain/api-tokens'
import { Forbidden, isDomainError, RateLimited, Unauthorized } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'

export type RpcContext = {
  db: Database
  /** Resolved from the session cookie by the route (app/routes/api/rpc.ts); null for anonymous callers. */
  user: SessionUser | null
  /** Whether the request carried a valid `x-csrf-token` from an allowed Origin. */
  isCsrfValid: boolean
  /** What the caller's personal API token may do; absent for a browser's session. */
  tokenScope?: ApiTokenScope
  headers: Headers
}

export const READ_TOKEN_MESSAGE = 'This token can only read. Make a read and write token to change things.'

/**
 * Translates the domain's errors into oRPC's codes at one place. Procedures stay thin: they call
 * a service and let its typed errors through.
 */
export function toORPCError(error: unknown): unknown {
  if (error instanceof ORPCError) {
    if (error.code === 'BAD_REQUEST' && error.cause instanceof ValidationError) {
      return new ORPCError('BAD_REQUEST', {
        message: 'Invalid input',
        data: {
          issues: error.cause.issues.map((issue) => ({
            path: (issue.path ?? []).map((part) => (typeof part === 'object' ? part.key : part)),
            message: issue.message,
          })),
        },
        cause: error.cause,
      })
    }
    return error
  }
  if (isDomainError(error)) {
    const data =
      error instanceof RateLimited
        ? { retryAfter: error.retryAfter }
        : 'issues' in error
          ? { issues: error.issues }
          : undefined
    return new ORPCError(error.code, { message: error.message, data, cause: error })
  }
  // Not a bug of ours and it passes in a moment: the route adds Retry-After (app/routes/api/rpc.ts).
  if (isDatabaseUnavailable(error)) {
    return new ORPCError('SERVICE_UNAVAILABLE', { status: 503, message: UNAVAILABLE_MESSAGE, cause: error })
  }
  return error
}

export const base = os.$context<RpcContext>()

/**
 * Every mutation goes through this: a cookie-authenticated call that changes something must
 * prove it comes from our pages (403 'Invalid CSRF token'); a token's call needs no CSRF token
 * (no browser sends it by itself) but must be allowed to write (403 for a `read` token). Reads
 * need neither, so they stay callable by GET and cacheable.
 */
export const mutation = base.middleware(async ({ context, next }) => {
  if (context.tokenScope === 'read') throw new Forbidden(READ_TOKEN_MESSAGE)
  if (context.tokenScope === undefined && !context.isCsrfValid) throw new Forbidden(INVALID_CSRF_MESSAGE)
  return next()
})

/** Procedures behind this need a signed-in user; anonymous callers get 401, never a redirect. */
export const authed = base.middleware(async ({ context, next }) => {
  if (!context.user) throw new Unauthorized()
  return next({ context: { user: context.user } })
})
