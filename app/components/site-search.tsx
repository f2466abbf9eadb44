import { useLocation } from 'react-router'
import { SEARCH_LIMITS } from '~/domain/constants'
import { cn } from '~/utils/cn'
import { controlClasses } from './ui/input'

/** The input's id: the `/` shortcut focuses it. */
export const SITE_SEARCH_ID = 'site-search'

/**
 * Search from every page: a plain GET form to /search, so it works without JavaScript. On /search
 * it shows what was searched.
 */
export function SiteSearch() {
  const { pathname, search } = useLocation()
  const current = pathname === '/search' ? (new URLSearchParams(search).get('q') ?? '') : ''
  return (
    // A form with the search role, not the newer <search> element, which older browsers do not know.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <form method="get" action="/search" role="search" aria-label="Site" className="min-w-0">
      <label htmlFor={SITE_SEARCH_ID} className="sr-only">
        Search tasks and comments
      </label>
      <input
        // Keyed by what was searched, so the field follows a new search on client navigation.
        key={current}
        id={SITE_SEARCH_ID}
        type="search"
        name="q"
        defaultValue={current}
        maxLength={SEARCH_LIMITS.query.maxLength}
        placeholder="Search…"
        className={cn('h-9 w-24 px-3 sm:w-36 lg:w-48', controlClasses)}
      />
    </form>
  )
}
