import { data, redirect } from 'react-router'
import { DocArticle } from '~/components/content/doc-article'
import { RouteErrorScreen } from '~/components/error-screens'
import { findDoc } from '~/services/content.server'
import { publicPageHeaders } from '~/utils/public-cache.server'
import { notFoundSeo, seo } from '~/utils/seo'
import { docPageData } from './+parts/doc-page.server'
import type { Route } from './+types/doc'

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error || !loaderData
    ? notFoundSeo(matches, '/docs')
    : seo({
        matches,
        title: `${loaderData.doc.title} — Docs`,
        description: loaderData.doc.description,
        path: `/docs/${loaderData.doc.path}`,
      })

export const headers: Route.HeadersFunction = publicPageHeaders

/** /docs/<path>: one doc, or the not-found screen with a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const path = (params['*'] ?? '').replace(/^\/+|\/+$/g, '')
  // The docs home has one address.
  if (path === 'index') throw redirect('/docs', 301)
  const doc = await findDoc(path)
  if (!doc) throw data({ backHref: '/docs' }, { status: 404 })
  const page = await docPageData(doc, request)
  return data(page.data, { headers: page.headers })
}

export default function DocPage({ loaderData }: Route.ComponentProps) {
  return <DocArticle {...loaderData} />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
