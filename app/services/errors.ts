/**
 * The domain's failures. Services throw these; each entry point translates them into its own language
 * (an HTTP status for route modules, an oRPC error code for /api/rpc). Messages are written for
 * the person who will read them.
 */
export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNAUTHORIZED'
  | 'BAD_REQUEST'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'

export type Issue = { path: (string | number)[]; message: string }

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode
  abstract readonly status: number
}

export class NotFound extends DomainError {
  override name = 'NotFound'
  readonly code = 'NOT_FOUND'
  readonly status = 404
}

export class Forbidden extends DomainError {
  override name = 'Forbidden'
  readonly code = 'FORBIDDEN'
  readonly status = 403
}

export class Unauthorized extends DomainError {
  override name = 'Unauthorized'
  readonly code = 'UNAUTHORIZED'
  readonly status = 401
  constructor(message = 'You need to sign in to do that.') {
    super(message)
  }
}

export class Invalid extends DomainError {
  override name = 'Invalid'
  readonly code = 'BAD_REQUEST'
  readonly status = 400
  constructor(
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message)
  }
}

export class Conflict extends DomainError {
  override name = 'Conflict'
  readonly code = 'CONFLICT'
  readonly status = 409
}

export class RateLimited extends DomainError {
  override name = 'RateLimited'
  readonly code = 'TOO_MANY_REQUESTS'
  readonly status = 429
  constructor(
    message: string,
    /** Seconds until a retry can succeed; sent as `Retry-After`. */
    readonly retryAfter: number,
  ) {
    super(message)
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError
}

/** Why a change was refused (its message is written for the person who reads it), said in HTTP. */
export type Refusal = {
  reason: DomainError
  init: { status: number; headers: Record<string, string> }
}

/**
 * A domain error as HTTP, for the entry points that answer in HTTP (route modules, /api/auth): the
 * status its class carries, and Retry-After when rate-limited. Anything else is a bug and
 * rethrows, to a 500.
 */
export function refusalFor(error: unknown): Refusal {
  if (!isDomainError(error)) throw error
  const headers: Record<string, string> =
    error instanceof RateLimited ? { 'Retry-After': String(error.retryAfter) } : {}
  return { reason: error, init: { status: error.status, headers } }
}
