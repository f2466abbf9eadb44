import { data, Link } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { ShowcaseGrid } from '~/components/marketing/showcase-grid'
import { buttonClasses } from '~/components/ui/button'
import { listShowcaseProjects } from '~/services/showcase.server'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import type { Route } from './+types/showcase'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: 'Showcase',
    description: 'Products and sites built with the Threadwork starter kit.',
    path: '/showcase',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

export async function loader({ request }: Route.LoaderArgs) {
  const projects = await listShowcaseProjects()
  return data({ projects }, { headers: publicCacheHeaders(request, JSON.stringify(projects)) })
}

export default function Showcase({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
      <header className="max-w-2xl">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Showcase</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          What people build with Threadwork: the product itself, its documentation and its blog all run on the
          kit you can buy.
        </p>
      </header>
      <div className="mt-12">
        <ShowcaseGrid projects={loaderData.projects} />
      </div>
      <aside className="mt-16 flex flex-col items-start gap-4 rounded-xl border bg-muted/50 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="font-semibold">Built something with Threadwork?</h2>
          <p className="mt-1 text-sm text-muted-foreground">Send us a link and a sentence about it.</p>
        </div>
        <Link to="/support" prefetch="intent" className={buttonClasses('outline')}>
          Submit your project
        </Link>
      </aside>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
