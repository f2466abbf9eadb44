import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList } from '~/components/forms'
import { Alert } from '~/components/ui/alert'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { VERIFICATION_SENT } from '~/components/verify-email-banner'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { ReturnAddressSchema } from '~/services/account-schemas'
import { requestEmailVerification } from '~/services/accounts.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { safeRedirect } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import type { Route } from './+types/request-verification'

const ALREADY_VERIFIED = 'Your e-mail address is already verified.'

/** `redirectTo` brings people back to the page whose banner they used. */
const RequestVerificationSchema = z.object({ redirectTo: ReturnAddressSchema })

export const meta: Route.MetaFunction = () => [
  { title: 'Verify your e-mail address | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = keepRetryAfter

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  return { email: user.email, isVerified: user.emailVerified }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  return handleForm(await readFormData(request), RequestVerificationSchema, async ({ redirectTo }) => {
    await requestEmailVerification(database(), user.id)
    return redirectWithToast(safeRedirect(redirectTo, '/email/request-verification'), {
      type: 'success',
      title: VERIFICATION_SENT,
      description: `We sent a new link to ${user.email}. It works once, for 1 hour.`,
    })
  })
}

export default function RequestVerification({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form] = useForm({
    id: 'request-verification',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RequestVerificationSchema }),
  })

  if (loaderData.isVerified) {
    return (
      <AuthCard title="Verify your e-mail address">
        <div className="flex flex-col gap-4">
          <Alert tone="success">{ALREADY_VERIFIED}</Alert>
          <Link to="/dashboard" className={buttonClasses('default')}>
            Go to your dashboard
          </Link>
        </div>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Verify your e-mail address"
      description={
        <>
          We send a link to <strong className="text-foreground">{loaderData.email}</strong>. Tasks shared with
          this address and mentions reach you once it is verified.
        </>
      }
    >
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <StatusButton isPending={isPending} pendingText="Sending…">
          Send a new verification link
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
