import { Link, useLocation } from 'react-router'
import { SEARCH_LIMITS } from '~/domain/constants'
import { cn } from '~/utils/cn'
import { buttonClasses } from './ui/button'
import { Icon } from './ui/icon'
import { controlClasses } from './ui/input'

/** The header's search field: the `/` shortcut focuses it. */
export const SITE_SEARCH_ID = 'site-search'

/**
 * Search from every page: a plain GET form to /search, so it works without JavaScript. On /search
 * it shows what was searched. The header holds it where there is room (`SITE_SEARCH_ID`); the
 * mobile drawer holds a second one under its own id.
 */
export function SiteSearch({ id = SITE_SEARCH_ID, className }: { id?: string; className?: string }) {
  const { pathname, search } = useLocation()
  const current = pathname === '/search' ? (new URLSearchParams(search).get('q') ?? '') : ''
  return (
    // A form with the search role, not the newer <search> element, which older browsers do not know.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <form method="get" action="/search" role="search" aria-label="Site" className={className}>
      <label htmlFor={id} className="sr-only">
        Search tasks and comments
      </label>
      <input
        // Keyed by what was searched, so the field follows a new search on client navigation.
        key={current}
        id={id}
        type="search"
        name="q"
        defaultValue={current}
        maxLength={SEARCH_LIMITS.query.maxLength}
        placeholder="Search…"
        className={cn('h-9 w-full px-3', controlClasses)}
      />
    </form>
  )
}

/** Where the header has no room for the field: a link to the search page, which has its own. */
export function SearchLink({ className }: { className?: string }) {
  return (
    <Link
      to="/search"
      prefetch="intent"
      aria-label="Search"
      className={buttonClasses('ghost', 'icon', className)}
    >
      <Icon name="search" className="size-5" />
    </Link>
  )
}
