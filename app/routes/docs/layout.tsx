import { Form, Link, Outlet, useLocation, useSearchParams } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { listDocs, summarizeDoc } from '~/services/content.server'
import { cn } from '~/utils/cn'
import type { Route } from './+types/layout'

/** Every doc, for the sidebar; the pages below decide what the main column shows. */
export async function loader() {
  const docs = await listDocs()
  return { docs: docs.map(summarizeDoc) }
}

export default function DocsLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation()
  const [searchParams] = useSearchParams()
  const query = searchParams.get('q') ?? ''
  const current = pathname.replace(/^\/docs\/?/, '').replace(/\/+$/, '') || null

  return (
    <div className="mx-auto max-w-7xl gap-10 px-4 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)]">
      <aside className="border-b py-6 lg:sticky lg:top-16 lg:max-h-[calc(100dvh-4rem)] lg:overflow-y-auto lg:border-b-0 lg:py-10">
        {/* A plain GET form: the results are a page of their own, with or without JavaScript. */}
        <Form method="get" action="/docs" role="search" className="flex gap-2">
          <Label htmlFor="docs-search" className="sr-only">
            Search the docs
          </Label>
          <Input
            id="docs-search"
            type="search"
            name="q"
            defaultValue={query}
            key={query}
            placeholder="Search the docs"
            className="min-w-0"
          />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </Form>
        <nav aria-label="Documentation" className="mt-6">
          <ul className="space-y-1 text-sm">
            {loaderData.docs.map((doc) => {
              const isCurrent = !query && (current ?? firstPath(loaderData.docs)) === doc.path
              return (
                <li key={doc.path}>
                  <Link
                    to={doc.path === 'index' ? '/docs' : `/docs/${doc.path}`}
                    prefetch="intent"
                    aria-current={isCurrent ? 'page' : undefined}
                    className={cn(
                      'block rounded-md px-3 py-1.5 hover:bg-muted',
                      isCurrent ? 'bg-accent font-medium text-foreground' : 'text-muted-foreground',
                    )}
                  >
                    {doc.title}
                  </Link>
                </li>
              )
            })}
          </ul>
        </nav>
      </aside>
      <Outlet />
    </div>
  )
}

/** What /docs shows when no path is given: the 'index' doc, else the first. */
function firstPath(docs: { path: string }[]) {
  return docs.find((doc) => doc.path === 'index')?.path ?? docs[0]?.path ?? null
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
