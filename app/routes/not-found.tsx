import { data } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import type { Route } from './+types/not-found'

export const meta: Route.MetaFunction = () => [
  { title: 'Not Found | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

/** Any URL no route claims: a real 404 status, and a way back to where the visitor came from. */
export function loader({ request, url }: Route.LoaderArgs) {
  const referer = request.headers.get('Referer')
  let backHref = '/'
  if (referer && URL.canParse(referer)) {
    const from = new URL(referer)
    if (from.origin === url.origin && from.pathname !== url.pathname) backHref = from.pathname + from.search
  }
  throw data({ backHref }, { status: 404 })
}

export function action() {
  throw data({ backHref: '/' }, { status: 404 })
}

export default function NotFound() {
  return null
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
