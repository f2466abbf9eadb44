import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList, Field } from '~/components/forms'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { ForgotPasswordSchema } from '~/services/account-schemas'
import { requestPasswordReset } from '~/services/accounts.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import type { Route } from './+types/forgot-password'

/** The one answer, whether or not the address has an account: nothing to learn from it. */
const RESET_REQUESTED = 'If an account exists for that address, we sent a link to reset its password.'

export const meta: Route.MetaFunction = () => [
  { title: 'Forgot your password? | Threadwork' },
  { name: 'description', content: 'Get a link to choose a new Threadwork password.' },
]

export const headers: Route.HeadersFunction = keepRetryAfter

export async function loader({ request, context, url }: Route.LoaderArgs) {
  return data(
    { isSent: url.searchParams.has('sent'), csrfToken: await csrfTokenFor(request, context) },
    // The page carries this visitor's CSRF token.
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleForm(await readFormData(request), ForgotPasswordSchema, async ({ email }) => {
    await requestPasswordReset(database(), email, { ip: clientIp(request, context) })
    // The same redirect for known and unknown addresses; the address stays out of the URL.
    return redirect('/email/forgot-password?sent')
  })
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(ForgotPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
  })

  if (loaderData.isSent && !actionData) {
    return (
      <AuthCard title="Check your inbox">
        <div className="flex flex-col gap-4">
          <Alert tone="success">
            <AlertTitle>{RESET_REQUESTED}</AlertTitle>
            The link works once, for 1 hour. Nothing there? Check your spam folder, or ask again.
          </Alert>
          <Link to="/email/forgot-password" className={buttonClasses('outline')}>
            Send another link
          </Link>
          <Link to="/login" className={buttonClasses('link')}>
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the e-mail address of your account and we send you a link to choose a new password."
      footer={
        <>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <ActionForm action="/email/forgot-password" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label="E-mail" meta={fields.email} type="email" autoComplete="email" autoFocus />
        <StatusButton isPending={isPending} pendingText="Sending…">
          Send reset link
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
