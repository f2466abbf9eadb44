import { oauthAuthorizeOrigins } from '~/auth/oauth/config.server'
import { env } from '~/env.server'
import { stripeHostedOrigins } from '~/services/payments/stripe.server'

/**
 * Headers every response carries, set once by the server. HSTS only in production, where the
 * app is behind TLS; sending it from http://localhost would pin browsers to https there.
 */
export function securityHeaders(isProduction: boolean): [string, string][] {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    // For older browsers only: current ones have dropped the filter (the nonce CSP below is the
    // real defence); older ones block the page rather than try to "repair" it.
    ['X-XSS-Protection', '1; mode=block'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
  ]
  if (isProduction) headers.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'])
  return headers
}

/** A nonce-based CSP for documents: only scripts the server rendered with this nonce run. */
export function contentSecurityPolicy(nonce: string): string {
  const analytics = env().PLAUSIBLE_DOMAIN ? new URL(env().PLAUSIBLE_SCRIPT_URL).origin : ''
  const directives = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' ${analytics}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${analytics}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    // The sign-in buttons post to us and are redirected to the OAuth provider, and the buy and
    // billing buttons to Stripe; browsers hold those redirects to form-action too, so the
    // configured providers' authorization servers and Stripe's hosted pages are allowed.
    `form-action 'self' ${[...oauthAuthorizeOrigins(), ...stripeHostedOrigins()].join(' ')}`.trim(),
  ]
  return directives.join('; ')
}
