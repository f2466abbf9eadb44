import { data, redirect } from 'react-router'
import { isTheme } from '~/theme'
import { themeCookieHeader } from '~/theme.server'
import { readFormData } from '~/utils/form-data.server'
import { safeRedirect } from '~/utils/redirect.server'
import type { Route } from './+types/theme'

/**
 * Stores the chosen theme. Without JavaScript the form posts here and comes back to the page it
 * was on; with JavaScript a fetcher posts and the page has already switched.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request)
  const theme = form.get('theme')
  if (!isTheme(theme)) {
    return data({ error: 'Theme must be "light" or "dark".' }, { status: 400 })
  }
  const headers = { 'Set-Cookie': themeCookieHeader(theme) }
  const redirectTo = form.get('redirectTo')
  if (redirectTo) return redirect(safeRedirect(redirectTo), { headers })
  return data({ theme }, { headers })
}

export function loader() {
  throw redirect('/')
}
