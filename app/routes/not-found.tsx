import { data } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { localPath } from '~/utils/redirect.server'
import type { Route } from './+types/not-found'

export const meta: Route.MetaFunction = () => [
  { title: 'Not Found | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

/** Any URL no route claims: a real 404 status, and a way back to where the visitor came from. */
export function loader({ request, url }: Route.LoaderArgs) {
  // A page of this site only, checked like any redirect target: a Referer is the client's to write.
  const from = localPath(request.headers.get('Referer'))
  const backHref = from && new URL(from, url).pathname !== url.pathname ? from : '/'
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
