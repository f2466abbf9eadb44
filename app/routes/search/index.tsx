import type { ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { Highlighted } from '~/components/highlighted'
import { buttonClasses } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { useWorkspaces } from '~/components/workspace-field'
import { database } from '~/db/client.server'
import { type SearchResults, search } from '~/services/search.server'
import type { Route } from './+types/index'

/**
 * /search?q=: the tasks and comments the signed-in person may see that hold the words they typed,
 * best first, each match marked. A plain GET form, so it works without JavaScript; the loader's
 * data is `SearchResults`, which the command palette reads too (`useFetcher().load('/search?q=…')`).
 * A result opens its task's modal over this page (`?task=`), a comment scrolled to (`#comment-<id>`).
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData?.query.trim()
      ? `${loaderData.query.trim()} · Search | Threadwork`
      : 'Search | Threadwork',
  },
]

export async function loader({ request, context, url }: Route.LoaderArgs): Promise<SearchResults> {
  const { user } = await requireUser(request, context, url)
  // `?scope=workspace`: only the workspace the person works in (the header's switcher).
  const within = url.searchParams.get('scope') === 'workspace' ? user.activeWorkspaceId : undefined
  return search(database(), user, { query: url.searchParams.get('q') ?? '', workspaceId: within })
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, message, tasks, comments } = loaderData
  const isEmpty = message === null && tasks.length === 0 && comments.length === 0
  const [searchParams] = useSearchParams()
  const isInWorkspace = searchParams.get('scope') === 'workspace'
  const opening = (taskId: string) =>
    `/search?${new URLSearchParams({ q: query, ...(isInWorkspace ? { scope: 'workspace' } : {}), task: taskId })}`
  const { workspaces, activeWorkspaceId } = useWorkspaces()
  const activeName = workspaces.find((workspace) => workspace.id === activeWorkspaceId)?.name

  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-2xl font-semibold">Search</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: the search role on a form, as the header's (components/site-search.tsx) */}
      <form
        method="get"
        action="/search"
        role="search"
        aria-label="Tasks and comments"
        id="site-search-page"
        className="flex gap-2"
      >
        <label htmlFor="search-query" className="sr-only">
          Search tasks and comments
        </label>
        <Input
          id="search-query"
          type="search"
          name="q"
          defaultValue={query}
          // No maxLength: an over-long query is answered in words (the service's limit), not cut off.
          placeholder="Words, a prefix, or a “quoted phrase”"
        />
        <button type="submit" className={buttonClasses('default', 'default')}>
          Search
        </button>
      </form>
      {activeName ? (
        <label className="-mt-3 flex items-center gap-2 text-sm" htmlFor="search-scope">
          <input
            id="search-scope"
            form="site-search-page"
            type="checkbox"
            name="scope"
            value="workspace"
            defaultChecked={isInWorkspace}
          />
          {`Only in ${activeName}`}
        </label>
      ) : null}

      {message ? (
        <p role="status" className="text-sm text-muted-foreground">
          {message}
        </p>
      ) : null}
      {isEmpty ? (
        <p role="status" className="text-sm text-muted-foreground">
          {`Nothing you can see matches “${query.trim()}”. Try fewer or shorter words.`}
        </p>
      ) : null}

      <ResultList id="task-results" heading="Tasks" items={tasks}>
        {(task) => (
          <>
            <Link to={opening(task.id)} preventScrollReset className="font-medium hover:underline">
              <Highlighted parts={task.title} />
            </Link>
            {task.details ? (
              <p className="mt-1 text-sm break-words text-muted-foreground">
                <Highlighted parts={task.details} />
              </p>
            ) : null}
            <p className="mt-1 text-xs text-muted-foreground">{`Owned by ${task.ownerName}`}</p>
          </>
        )}
      </ResultList>
      <ResultList id="comment-results" heading="Comments" items={comments}>
        {(comment) => (
          <>
            <Link
              to={`${opening(comment.taskId)}#comment-${comment.id}`}
              preventScrollReset
              className="text-sm break-words hover:underline"
            >
              <Highlighted parts={comment.snippet} />
            </Link>
            <p className="mt-1 text-xs text-muted-foreground">{`${comment.authorName} on “${comment.taskText}”`}</p>
          </>
        )}
      </ResultList>
    </main>
  )
}

/** One kind of result under its heading with a count; nothing when there is none. */
function ResultList<Item extends { id: string }>({
  id,
  heading,
  items,
  children,
}: {
  id: string
  heading: string
  items: Item[]
  children: (item: Item) => ReactNode
}) {
  if (items.length === 0) return null
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-lg font-semibold">
        {`${heading} (${items.length})`}
      </h2>
      <ul className="divide-y rounded-lg border">
        {items.map((item) => (
          <li key={item.id} data-testid={id} className="p-4">
            {children(item)}
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
