import { LegalPage } from '~/components/content/legal-page'
import { RouteErrorScreen } from '~/components/error-screens'
import { publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import { legalPageData } from './+parts/legal-page.server'
import type { Route } from './+types/terms'

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    matches,
    title: loaderData?.title ?? 'Terms of Service',
    description: loaderData?.description ?? 'The Terms of Service of Threadwork.',
    path: '/terms',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

export function loader({ request }: Route.LoaderArgs) {
  return legalPageData('terms', request)
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
