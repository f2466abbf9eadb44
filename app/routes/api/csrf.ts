import { csrfTokenFor } from '~/auth/context.server'
import { CSRF_TOKEN_TTL_MS } from '~/auth/csrf.server'
import type { Route } from './+types/csrf'

/**
 * A CSRF token for API clients (valid 1 hour), bound to the caller's session or, before sign-in,
 * to an anonymous cookie this response sets. Send it back as `x-csrf-token`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const csrfToken = await csrfTokenFor(request, context)
  return Response.json(
    { csrfToken, expiresAt: new Date(Date.now() + CSRF_TOKEN_TTL_MS).toISOString() },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}
