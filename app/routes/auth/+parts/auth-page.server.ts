import { data, type RouterContextProvider } from 'react-router'
import type { FormAttempt } from '~/auth/authenticator.server'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor, requireAnonymous } from '~/auth/context.server'
import { redirectSignedIn } from '~/auth/login.server'
import { configuredProviders } from '~/auth/oauth/config.server'
import { replyWithError } from '~/http/refusals.server'
import type { SignInSchema, SignUpSchema } from '~/services/account-schemas'
import { isDomainError } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import type { ToastInput } from '~/toast.server'
import { localPath, safeRedirect } from '~/utils/redirect.server'

/**
 * What /login and /signup share: a signed-in visitor goes straight on; the page gets its return
 * path, its CSRF token and the configured OAuth providers; a submission goes to its password
 * attempt and, on success, becomes a session and a redirect.
 */
const SIGNED_IN_PATH = '/dashboard'

type Args = { request: Request; context: Readonly<RouterContextProvider>; url: URL }

export async function loadAuthPage({ request, context, url }: Args) {
  const redirect = localPath(url.searchParams.get('redirect'))
  await requireAnonymous(request, context, redirect ?? SIGNED_IN_PATH)
  return {
    redirect: redirect ?? '',
    csrfToken: await csrfTokenFor(request, context),
    providers: configuredProviders(),
  }
}

/**
 * A sign-in or sign-up form, through its password attempt (authenticator.server.ts), which
 * reads and validates the form and calls the account service; this answers what it ended with.
 */
export async function submitAuthForm<Schema extends typeof SignInSchema | typeof SignUpSchema>(
  { request, context }: Omit<Args, 'url'>,
  authenticate: (request: Request, ip: string) => Promise<FormAttempt<Schema>>,
  {
    toast,
    landing = SIGNED_IN_PATH,
    isNewAccount = false,
  }: {
    toast?: (user: SessionUser) => ToastInput
    /** Where the person lands when the form names no return path. */
    landing?: string
    /** True for the sign-up form: no new-sign-in e-mail for the account's first session. */
    isNewAccount?: boolean
  } = {},
) {
  const attempt = await authenticate(request, clientIp(request, context))
  if (!attempt.user) {
    return attempt.refusal
      ? replyWithError(attempt.submission, attempt.refusal, { hideFields: ['password'] })
      : data({ result: attempt.submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  const to = safeRedirect(attempt.input.redirect, landing)
  try {
    return await redirectSignedIn({ request, context }, attempt.user.id, 'password', to, {
      toast: toast?.(attempt.user),
      isNewAccount,
    })
  } catch (error) {
    // The right password for a disabled account: no session is created (sessions.server.ts).
    if (isDomainError(error)) return replyWithError(attempt.submission, error, { hideFields: ['password'] })
    throw error
  }
}
