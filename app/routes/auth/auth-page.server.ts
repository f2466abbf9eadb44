import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor, requireAnonymous } from '~/auth/context.server'
import { redirectSignedIn } from '~/auth/login.server'
import { configuredProviders } from '~/auth/oauth.server'
import type { SignInSchema, SignUpSchema } from '~/auth/schemas'
import type { SessionUser } from '~/auth/session-user'
import type { ToastInput } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { localPath, safeRedirect } from '~/utils/redirect.server'
import { replyWithError } from '~/utils/refusals.server'

/**
 * What /login and /signup share: a signed-in visitor goes straight on; the page gets its return
 * path, its CSRF token and the configured OAuth providers; a submission is validated, handed to
 * its remix-auth strategy and, on success, becomes a session and a redirect.
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

export async function submitAuthForm(
  { request, context }: Omit<Args, 'url'>,
  schema: typeof SignInSchema | typeof SignUpSchema,
  authenticate: (request: Request, ip: string) => Promise<SessionUser>,
  toast?: (user: SessionUser) => ToastInput,
) {
  const submission = parseWithZod(await readFormData(request), { schema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  try {
    const user = await authenticate(request, clientIp(request, context))
    const to = safeRedirect(submission.value.redirect, SIGNED_IN_PATH)
    return await redirectSignedIn(user.id, to, request, context, toast?.(user))
  } catch (error) {
    return replyWithError(submission, error, { hideFields: ['password'] })
  }
}
