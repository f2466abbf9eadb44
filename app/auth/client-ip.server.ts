import { createContext, type RouterContextProvider } from 'react-router'
import { env } from '~/env.server'

/** The TCP peer's address, set by the production server for each request. */
export const clientAddressContext = createContext<string | null>(null)

/**
 * The visitor's IP for rate limits and the sessions list. Forwarding headers are trusted only
 * behind a proxy we know of (TRUST_PROXY, set on Fly): anyone can send them otherwise.
 */
export function clientIp(request: Request, context: Readonly<RouterContextProvider>): string {
  if (env().TRUST_PROXY) {
    const forwarded =
      request.headers.get('Fly-Client-IP') ?? request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return context.get(clientAddressContext) ?? 'unknown'
}
