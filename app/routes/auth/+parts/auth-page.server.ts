import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor, requireAnonymous } from '~/auth/context.server'
import { redirectSignedIn } from '~/auth/login.server'
import { configuredProviders } from '~/auth/oauth/config.server'
import { replyWithError } from '~/http/refusals.server'
import type { SignInSchema, SignUpSchema } from '~/services/account-schemas'
import type { SessionUser } from '~/services/session-user'
import type { ToastInput } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { localPath, safeRedirect } from '~/utils/redirect.server'
import type { z } from '~/utils/zod'

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

/** The route validates the form; its remix-auth strategy receives the value (authenticator.server.ts). */
export async function submitAuthForm<Schema extends typeof SignInSchema | typeof SignUpSchema>(
  { request, context }: Omit<Args, 'url'>,
  schema: Schema,
  authenticate: (request: Request, input: z.output<Schema>, ip: string) => Promise<SessionUser>,
  toast?: (user: SessionUser) => ToastInput,
  /** Where the person lands when the form names no return path. */
  landing = SIGNED_IN_PATH,
) {
  const submission = parseWithZod(await readFormData(request), { schema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  try {
    // conform's types lose the schema's output behind a type parameter; the parse above produced it.
    const input = submission.value as z.output<Schema>
    const user = await authenticate(request, input, clientIp(request, context))
    const to = safeRedirect(input.redirect, landing)
    return await redirectSignedIn(user.id, to, request, context, toast?.(user))
  } catch (error) {
    return replyWithError(submission, error, { hideFields: ['password'] })
  }
}
