import type { RouterContextProvider } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor, requireAnonymous } from '~/auth/context.server'
import { redirectSignedIn } from '~/auth/login.server'
import { configuredProviders } from '~/auth/oauth/config.server'
import { handleForm } from '~/http/form-action.server'
import type { SessionUser } from '~/services/session-user'
import type { ToastInput } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { localPath, safeRedirect } from '~/utils/redirect.server'
import type { z } from '~/utils/zod'

/**
 * What /login and /signup share: a signed-in visitor goes straight on; the page gets its return
 * path, its CSRF token and the configured OAuth providers; a submission signs the person in or
 * up and, on success, becomes a session and a redirect.
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
 * A sign-in or sign-up form, answered through `handleForm`: the form's schema parses it, the
 * account service (which holds every rule, the rate limits among them) names the person, and the
 * person gets a session and a redirect, or the two-factor step (`redirectSignedIn`). The client's
 * address, for the rate limits, comes from the router context.
 */
export async function submitAuthForm<Input extends { redirect?: string }>(
  { request, context }: Omit<Args, 'url'>,
  schema: z.ZodType<Input>,
  enter: (input: Input, ip: string) => Promise<SessionUser>,
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
  const ip = clientIp(request, context)
  return handleForm(
    await readFormData(request),
    schema,
    async (input) => {
      const user = await enter(input, ip)
      const to = safeRedirect(input.redirect, landing)
      // A disabled account refuses here, with the right password: no session is created
      // (sessions.server.ts).
      return redirectSignedIn({ request, context }, user.id, 'password', to, {
        toast: toast?.(user),
        isNewAccount,
      })
    },
    { hideFields: ['password'] },
  )
}
