import { env } from '~/env.server'
import { publicResource } from '~/utils/public-cache.server'
import type { Route } from './+types/robots'

/**
 * Paths crawlers should leave alone: the APIs, signed-in screens, one-time links from e-mails
 * and payment steps. Everything else is public and listed in the sitemap.
 */
const DISALLOWED_PATHS = [
  '/api/',
  '/resources/',
  '/login/callback',
  '/email/',
  '/payment/',
  '/dashboard',
  '/task',
  '/chat',
  '/saved-chats',
  '/onboarding',
  '/settings',
  '/notifications',
  '/dev/',
]

/** /robots.txt */
export function loader({ request }: Route.LoaderArgs) {
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${env().BASE_URL}/sitemap.xml`,
    '',
  ].join('\n')
  return publicResource(request, body, 'text/plain; charset=utf-8')
}
