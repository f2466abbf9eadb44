import { useMatches } from 'react-router'

export const CSRF_FIELD = 'csrf'

/**
 * The CSRF token of this page: the deepest route that issued one (forms for anonymous visitors
 * get theirs from their own loader), else the root's (every signed-in page has one).
 */
export function useCsrfToken(): string {
  const matches = useMatches()
  for (let index = matches.length - 1; index >= 0; index--) {
    const data = matches[index]?.loaderData
    if (data && typeof data === 'object' && 'csrfToken' in data && typeof data.csrfToken === 'string') {
      return data.csrfToken
    }
  }
  return ''
}

/** `<ActionForm>` renders this in every form that posts; fetch calls send it as `x-csrf-token`. */
export function CsrfInput() {
  return <input type="hidden" name={CSRF_FIELD} value={useCsrfToken()} />
}
