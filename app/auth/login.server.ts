import { redirect } from 'react-router'
import { redirectWithToast, type ToastInput } from '~/toast.server'
import { finishSignIn, type SignInMethod, type SignInRequest, TWO_FACTOR_PATH } from './sign-in.server'

/**
 * The HTML pages' end of a sign-in (the forms, the OAuth callback, a reset link): through
 * `finishSignIn`, on to `to` (already checked to be a local path) with a session, or first to the
 * second-factor page, which goes on to `to` afterwards.
 */
export async function redirectSignedIn(
  signIn: SignInRequest,
  userId: string,
  method: SignInMethod,
  to: string,
  options: { toast?: ToastInput; isNewAccount?: boolean } = {},
) {
  const outcome = await finishSignIn(signIn, userId, method, {
    redirectTo: to,
    isNewAccount: options.isNewAccount,
  })
  const headers = new Headers()
  for (const cookie of outcome.setCookies) headers.append('Set-Cookie', cookie)
  if (outcome.isPending) return redirect(TWO_FACTOR_PATH, { headers })
  return options.toast ? redirectWithToast(to, options.toast, { headers }) : redirect(to, { headers })
}
