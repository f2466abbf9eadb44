import { data, Link } from 'react-router'
import { DocArticle, docHref } from '~/components/content/doc-article'
import { RouteErrorScreen } from '~/components/error-screens'
import { contentVersion, findDocsHome, NO_DOCS_MESSAGE, searchDocs } from '~/services/content.server'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import { docPageData } from './+parts/doc-page.server'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (loaderData?.kind === 'search') {
    return seo({
      matches,
      title: `Search results for “${loaderData.query}”`,
      description: 'Search results in the Threadwork documentation.',
      path: '/docs',
      noindex: true,
    })
  }
  return seo({
    matches,
    title: loaderData?.kind === 'doc' ? `${loaderData.doc.title} — Docs` : 'Docs',
    description:
      loaderData?.kind === 'doc'
        ? loaderData.doc.description
        : 'How to run, configure, extend and deploy Threadwork.',
    path: '/docs',
  })
}

export const headers: Route.HeadersFunction = publicPageHeaders

/** /docs: the search results for `?q=`, else the 'index' doc (or the first by order). */
export async function loader({ request, url }: Route.LoaderArgs) {
  const query = url.searchParams.get('q')?.trim() ?? ''
  if (query !== '') {
    const [hits, version] = await Promise.all([searchDocs(query), contentVersion(['docs'])])
    return data({ kind: 'search' as const, query, hits }, { headers: publicCacheHeaders(request, version) })
  }
  const doc = await findDocsHome()
  if (!doc) throw data({ message: NO_DOCS_MESSAGE }, { status: 404 })
  const page = await docPageData(doc, request)
  return data({ kind: 'doc' as const, ...page.data }, { headers: page.headers })
}

export default function DocsHome({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'doc') return <DocArticle {...loaderData} />
  const { query, hits } = loaderData
  return (
    <main className="min-w-0 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Search results</h1>
      <p className="mt-3 text-muted-foreground" role="status">
        {hits.length === 0
          ? `Nothing in the docs matches “${query}”.`
          : `${hits.length} ${hits.length === 1 ? 'page matches' : 'pages match'} “${query}”.`}
      </p>
      <ol className="mt-8 space-y-6">
        {hits.map((hit) => (
          <li key={hit.path}>
            <Link to={docHref(hit.path)} className="text-lg font-semibold text-primary hover:underline">
              {hit.title}
            </Link>
            <p className="mt-1 text-sm text-muted-foreground">
              {hit.snippet.map((part, index) =>
                part.isMatch ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed string, never reordered
                  <mark key={index} className="rounded-sm bg-accent px-0.5 text-foreground">
                    {part.text}
                  </mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed string, never reordered
                  <span key={index}>{part.text}</span>
                ),
              )}
            </p>
          </li>
        ))}
      </ol>
      {hits.length === 0 ? (
        <p className="mt-6">
          <Link to="/docs" className="text-primary underline underline-offset-4">
            Back to the docs
          </Link>
        </p>
      ) : null}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
