import { data } from 'react-router'
import { Prose } from '~/components/content/prose'
import { RouteErrorScreen } from '~/components/error-screens'
import { contentVersion, listChangelog, renderEntry } from '~/services/content.server'
import { formatLongDate } from '~/utils/long-date'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import type { Route } from './+types/changelog'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: 'Changelog',
    description: 'What has shipped in Threadwork, newest first.',
    path: '/changelog',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

/** Every changelog entry, newest first, each with its text. */
export async function loader({ request }: Route.LoaderArgs) {
  const [entries, version] = await Promise.all([listChangelog(), contentVersion(['changelog'])])
  const rendered = await Promise.all(entries.map((entry) => renderEntry(entry)))
  return data(
    {
      entries: entries.map((entry, index) => ({
        slug: entry.slug,
        date: entry.date,
        title: entry.title,
        version: entry.version,
        html: rendered[index]?.html ?? '',
      })),
    },
    { headers: publicCacheHeaders(request, version) },
  )
}

export default function Changelog({ loaderData: { entries } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">Changelog</h1>
      <p className="mt-2 text-muted-foreground">What has shipped, newest first.</p>
      {entries.length === 0 ? (
        <p className="mt-10 text-muted-foreground">Nothing has shipped yet.</p>
      ) : (
        <ol className="mt-10 space-y-12">
          {entries.map((entry) => (
            <li key={entry.slug} id={entry.slug} className="scroll-mt-20">
              <article className="grid gap-2 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-8">
                <p className="text-sm text-muted-foreground sm:pt-1.5">
                  <time dateTime={entry.date}>{formatLongDate(entry.date)}</time>
                </p>
                <div className="min-w-0">
                  <h2 className="text-xl font-semibold">
                    <a href={`#${entry.slug}`} className="hover:underline">
                      {entry.version ? <span className="mr-2 text-primary">{entry.version}</span> : null}
                      {entry.title}
                    </a>
                  </h2>
                  <Prose html={entry.html} className="mt-3" />
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
