/**
 * The address of a page with some of its search params changed: a string sets a param (in its
 * place, if it is there already), null removes it, and the others stay as they are. It takes the
 * router's `location`, a `URL`, or a path with its search, and keeps no `?` when nothing is left.
 *
 *   withSearchParams(location, { task: id, view: null })  // '/task?filter=all&task=t1'
 */
export function withSearchParams(
  page: { pathname: string; search: string } | string,
  changes: Record<string, string | null>,
): string {
  const { pathname, search } = typeof page === 'string' ? new URL(page, 'http://local') : page
  const params = new URLSearchParams(search)
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name)
    else params.set(name, value)
  }
  const query = params.toString()
  return query ? `${pathname}?${query}` : pathname
}
