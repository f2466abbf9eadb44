import { LegalPage } from '~/components/content/legal-page'
import { RouteErrorScreen } from '~/components/error-screens'
import { publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import { legalPageData } from './+parts/legal-page.server'
import type { Route } from './+types/privacy'

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    matches,
    title: loaderData?.title ?? 'Privacy Policy',
    description: loaderData?.description ?? 'The Privacy Policy of Threadwork.',
    path: '/privacy',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

export function loader({ request }: Route.LoaderArgs) {
  return legalPageData('privacy', request)
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
