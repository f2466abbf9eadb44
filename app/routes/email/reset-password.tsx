import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { csrfTokenFor } from '~/auth/context.server'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList, Field } from '~/components/forms'
import { Alert } from '~/components/ui/alert'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { isLinkUsable } from '~/email/links.server'
import { handleForm } from '~/http/form-action.server'
import { PASSWORD_MIN_LENGTH, ResetPasswordSchema } from '~/services/account-schemas'
import { INVALID_RESET_LINK, resetPassword } from '~/services/accounts.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import type { Route } from './+types/reset-password'

const MISSING_RESET_TOKEN = 'The password reset link is missing its token.'

/**
 * The URL carries a secret and the page a CSRF token: no cache may keep it. (The site-wide
 * Referrer-Policy already keeps the path from other sites; 'no-referrer' here would make the
 * browser send `Origin: null` with the form, and the form would be refused as cross-site.)
 */
const privateHeaders = { 'Cache-Control': 'private, no-store' }

export const meta: Route.MetaFunction = () => [
  { title: 'Choose a new password | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = () => privateHeaders

/** Opening the link only checks it (a mail scanner may fetch it first); the form spends it. */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get('token')
  if (!token) return data({ failure: MISSING_RESET_TOKEN, token: '', csrfToken: '' }, { status: 400 })
  if (!(await isLinkUsable(database(), 'reset-password', token))) {
    return data({ failure: INVALID_RESET_LINK, token: '', csrfToken: '' }, { status: 400 })
  }
  return { failure: null, token, csrfToken: await csrfTokenFor(request, context) }
}

export async function action({ request }: Route.ActionArgs) {
  return handleForm(
    await readFormData(request),
    ResetPasswordSchema,
    async ({ token, password }) => {
      await resetPassword(database(), token, password)
      // Every session just ended, this browser's too: drop its cookie along with it.
      return redirectWithToast(
        '/login',
        {
          type: 'success',
          title: 'Password changed',
          description: 'Every device was signed out. Sign in with your new password.',
        },
        { headers: { 'Set-Cookie': clearSessionCookie() } },
      )
    },
    { hideFields: ['password', 'confirmPassword'] },
  )
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(ResetPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
  })

  // The loader's verdict on the link, or the action's: a link that died between opening and
  // submitting (used in another tab, expired) is the only error the form as a whole can get.
  const failure = loaderData.failure ?? (form.errors ?? fields.token.errors)?.join(' ')
  if (failure) {
    return (
      <AuthCard title="Choose a new password">
        <div className="flex flex-col gap-4">
          <Alert tone="error">{failure}</Alert>
          <p className="text-sm text-muted-foreground">
            Reset links work once and for 1 hour. Ask for a new one and use the latest e-mail.
          </p>
          <Link to="/email/forgot-password" className={buttonClasses('default')}>
            Request a new reset link
          </Link>
        </div>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Choose a new password"
      description="Setting it signs you out everywhere; then sign in with the new password."
    >
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name={fields.token.name} value={loaderData.token} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="New password"
          meta={fields.password}
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          autoFocus
        />
        <Field
          label="Repeat the new password"
          meta={fields.confirmPassword}
          type="password"
          autoComplete="new-password"
        />
        <StatusButton isPending={isPending} pendingText="Saving…">
          Set new password
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
