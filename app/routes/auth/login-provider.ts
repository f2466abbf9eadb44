import { redirect } from 'react-router'
import { OAuthFlowError } from '~/auth/oauth/errors.server'
import { startOAuth } from '~/auth/oauth/flow.server'
import { isOAuthProvider } from '~/auth/oauth-providers'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { localPath } from '~/utils/redirect.server'
import type { Route } from './+types/login-provider'

/**
 * Starts a sign-in with GitHub or Google and sends the browser to the provider. The sign-in
 * buttons POST here (the root middleware has checked their CSRF token by now); a GET starts the
 * same flow for links and for the /api/auth client, which is safe because the state cookie ties
 * the callback to this browser.
 */
export async function loader({ request, params, url }: Route.LoaderArgs) {
  return start(request, params.provider, url.searchParams.get('redirect'))
}

export async function action({ request, params }: Route.ActionArgs) {
  return start(request, params.provider, (await readFormData(request)).get('redirect'))
}

async function start(request: Request, provider: string, redirectTo: unknown) {
  if (!isOAuthProvider(provider)) throw new Response('Not Found', { status: 404 })
  const target = localPath(redirectTo) ?? undefined
  try {
    const { url, headers } = await startOAuth(provider, request, target)
    return redirect(url, { headers })
  } catch (error) {
    // A provider without configuration: back to the sign-in page, which no longer offers it.
    if (error instanceof OAuthFlowError) {
      const login = target ? `/login?${new URLSearchParams({ redirect: target })}` : '/login'
      return redirectWithToast(login, { type: 'error', title: error.message })
    }
    throw error
  }
}
