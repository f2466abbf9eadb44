import { Input } from './ui/input'

/** The header's search field: the `/` shortcut focuses it. */
const SITE_SEARCH_ID = 'site-search'

/**
 * Search from every page: a plain GET form to /search, so it works without JavaScript. The header
 * holds it where there is room (`SITE_SEARCH_ID`); the mobile drawer holds a second one under its
 * own id. It stays blank: the search page's own field shows what was searched, and refuses an
 * over-long query in words (its limit lives with the page, so no page pays for it here).
 */
export function SiteSearch({ id = SITE_SEARCH_ID, className }: { id?: string; className?: string }) {
  return (
    // A form with the search role, not the newer <search> element, which older browsers do not know.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <form method="get" action="/search" role="search" aria-label="Site" className={className}>
      <Input id={id} type="search" name="q" placeholder="Search…" aria-label="Search tasks and comments" />
    </form>
  )
}
