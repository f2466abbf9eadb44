import { data, Link } from 'react-router'
import { csrfTokenFor } from '~/auth/context.server'
import { redirectSignedIn } from '~/auth/login.server'
import { configuredProviders } from '~/auth/oauth/config.server'
import { OAuthFlowError } from '~/auth/oauth/errors.server'
import { finishOAuth } from '~/auth/oauth/flow.server'
import { DEFAULT_SIGNED_IN_PATH, oauthCookiesToClear } from '~/auth/oauth/flow-cookies.server'
import { type OAuthProvider, PROVIDER_NAMES } from '~/auth/oauth-providers'
import { RouteErrorScreen } from '~/components/error-screens'
import { OAuthButtons } from '~/components/oauth-buttons'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { signInWithOAuth } from '~/services/accounts.server'
import { Conflict, Forbidden, Invalid } from '~/services/errors'
import { ONBOARDING_PATH } from '~/services/onboarding-steps'
import type { Route } from './+types/login-callback'

export const meta: Route.MetaFunction = () => [
  { title: 'Sign-in failed | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

/**
 * Where GitHub and Google send people back (the redirect URI registered with both). Success
 * starts a session and goes on to the page the sign-in began from; anything the person can act
 * on (a cancelled consent, a stale or foreign state, an address that may not be linked) is
 * explained on this page with a way back to sign in, and, when trying again can help, the
 * provider buttons to do so at once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  for (const cookie of oauthCookiesToClear(request)) headers.append('Set-Cookie', cookie)

  let provider: OAuthProvider | null = null
  let redirectTo: string | null = null
  try {
    const flow = await finishOAuth(request)
    provider = flow.provider
    redirectTo = flow.redirectTo
    const user = await signInWithOAuth(database(), flow.profile)
    // A new account is guided through onboarding, unless it was on its way somewhere.
    const to =
      user.isNewAccount && flow.redirectTo === DEFAULT_SIGNED_IN_PATH ? ONBOARDING_PATH : flow.redirectTo
    const response = await redirectSignedIn({ request, context }, user.id, flow.provider, to, {
      isNewAccount: user.isNewAccount,
    })
    for (const cookie of headers.getSetCookie()) response.headers.append('Set-Cookie', cookie)
    return response
  } catch (error) {
    if (error instanceof OAuthFlowError) {
      const retry = { providers: configuredProviders(), csrfToken: await csrfTokenFor(request, context) }
      return failure(error, error.provider, error.redirectTo, headers, retry)
    }
    // The same identity would meet the same rule again (a disabled account too): no retry
    // buttons, only the message.
    if (error instanceof Conflict || error instanceof Invalid || error instanceof Forbidden) {
      return failure(error, provider, redirectTo, headers)
    }
    throw error
  }
}

function failure(
  error: { message: string; status: number },
  provider: OAuthProvider | null,
  redirectTo: string | null,
  headers: Headers,
  retry: { providers: OAuthProvider[]; csrfToken: string | null } = { providers: [], csrfToken: null },
) {
  const keepsTarget = redirectTo !== null && redirectTo !== DEFAULT_SIGNED_IN_PATH
  return data(
    {
      message: error.message,
      providerName: provider ? PROVIDER_NAMES[provider] : null,
      loginHref: keepsTarget ? `/login?${new URLSearchParams({ redirect: redirectTo })}` : '/login',
      redirectTo: keepsTarget ? redirectTo : undefined,
      // `csrfToken` is what <CsrfInput> in the retry buttons reads.
      ...retry,
    },
    { status: error.status, headers },
  )
}

export default function OAuthCallbackFailure({ loaderData }: Route.ComponentProps) {
  const { message, providerName, loginHref, providers, redirectTo } = loaderData
  const canRetry = providers.length > 0
  return (
    <main className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">
        {providerName ? `Could not sign in with ${providerName}` : 'Could not sign you in'}
      </h1>
      <p role="alert" className="text-muted-foreground">
        {message}
      </p>
      {canRetry ? (
        <div className="w-full max-w-xs">
          <OAuthButtons providers={providers} redirect={redirectTo} />
        </div>
      ) : null}
      <Link to={loginHref} className={buttonClasses(canRetry ? 'link' : 'default')}>
        Back to sign in
      </Link>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
