import { data, Link } from 'react-router'
import { redirectSignedIn } from '~/auth/login.server'
import { DEFAULT_SIGNED_IN_PATH, finishOAuth, OAuthFlowError, oauthCookiesToClear } from '~/auth/oauth.server'
import { type OAuthProvider, PROVIDER_NAMES } from '~/auth/oauth-providers'
import { RouteErrorScreen } from '~/components/error-screens'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { signInWithOAuth } from '~/services/accounts.server'
import { Conflict, Invalid } from '~/services/errors'
import type { Route } from './+types/login.callback'

export const meta: Route.MetaFunction = () => [
  { title: 'Sign-in failed | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

/**
 * Where GitHub and Google send people back (the redirect URI registered with both). Success
 * starts a session and goes on to the page the sign-in began from; anything the person can act
 * on (a cancelled consent, a stale or foreign state, an address that may not be linked) is
 * explained on this page with a way back to sign in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  for (const cookie of oauthCookiesToClear()) headers.append('Set-Cookie', cookie)

  let provider: OAuthProvider | null = null
  let redirectTo: string | null = null
  try {
    const flow = await finishOAuth(request)
    provider = flow.provider
    redirectTo = flow.redirectTo
    const user = await signInWithOAuth(database(), flow.profile)
    const response = await redirectSignedIn(user.id, flow.redirectTo, request, context)
    for (const cookie of headers.getSetCookie()) response.headers.append('Set-Cookie', cookie)
    return response
  } catch (error) {
    if (error instanceof OAuthFlowError) {
      return failure(error.message, error.status, error.provider, error.redirectTo, headers)
    }
    if (error instanceof Conflict || error instanceof Invalid) {
      return failure(error.message, error.status, provider, redirectTo, headers)
    }
    throw error
  }
}

function failure(
  message: string,
  status: number,
  provider: OAuthProvider | null,
  redirectTo: string | null,
  headers: Headers,
) {
  const keepsTarget = redirectTo && redirectTo !== DEFAULT_SIGNED_IN_PATH
  const loginHref = keepsTarget ? `/login?${new URLSearchParams({ redirect: redirectTo })}` : '/login'
  return data(
    { message, providerName: provider ? PROVIDER_NAMES[provider] : null, loginHref },
    { status, headers },
  )
}

export default function OAuthCallbackFailure({ loaderData }: Route.ComponentProps) {
  const { message, providerName, loginHref } = loaderData
  return (
    <main className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">
        {providerName ? `Could not sign in with ${providerName}` : 'Could not sign you in'}
      </h1>
      <p role="alert" className="text-muted-foreground">
        {message}
      </p>
      <Link to={loginHref} className={buttonClasses('default')}>
        Back to sign in
      </Link>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
