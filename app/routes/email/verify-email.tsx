import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { csrfTokenFor, getUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList } from '~/components/forms'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { isLinkUsable } from '~/email/links.server'
import { handleForm } from '~/http/form-action.server'
import { INVALID_VERIFICATION_LINK, verifyEmail } from '~/services/accounts.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { z } from '~/utils/zod'
import type { Route } from './+types/verify-email'

const MISSING_VERIFICATION_TOKEN = 'The verification link is missing its token.'

const VerifyEmailSchema = z.object({
  token: z.string({ error: MISSING_VERIFICATION_TOKEN }).min(1, MISSING_VERIFICATION_TOKEN),
})

/**
 * The URL carries a secret and the page a CSRF token: no cache may keep it. (The site-wide
 * Referrer-Policy already keeps the path from other sites; 'no-referrer' here would make the
 * browser send `Origin: null` with the form, and the form would be refused as cross-site.)
 */
const privateHeaders = { 'Cache-Control': 'private, no-store' }

export const meta: Route.MetaFunction = () => [
  { title: 'Verify your e-mail address | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = () => privateHeaders

/**
 * Opening the link only checks it; the button spends it (a POST). Links in e-mails are GETs, and
 * mail scanners fetch them before the person does: a GET that verified would let a scanner use
 * the single-use token up, and the owner would find a dead link.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get('token')
  if (!token) return data({ failure: MISSING_VERIFICATION_TOKEN, token: '', csrfToken: '' }, { status: 400 })
  if (!(await isLinkUsable(database(), 'verify-email', token))) {
    return data({ failure: INVALID_VERIFICATION_LINK, token: '', csrfToken: '' }, { status: 400 })
  }
  return { failure: null, token, csrfToken: await csrfTokenFor(request, context) }
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleForm(await readFormData(request), VerifyEmailSchema, async ({ token }, form) => {
    const verified = await verifyEmail(database(), token)
    const user = await getUser(request, context)
    if (user?.id === verified.id) {
      return redirectWithToast('/dashboard', {
        type: 'success',
        title: 'E-mail address verified',
        description: `Tasks shared with ${verified.email} and mentions now reach you.`,
      })
    }
    return { result: form.reply(), verifiedEmail: verified.email }
  })
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'verify-email',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: VerifyEmailSchema }),
  })

  if (actionData && 'verifiedEmail' in actionData) {
    return (
      <AuthCard title="E-mail address verified">
        <div className="flex flex-col gap-4">
          <Alert tone="success">
            <AlertTitle>{actionData.verifiedEmail} is verified.</AlertTitle>
            Tasks shared with this address and mentions will reach you.
          </Alert>
          <Link to="/login?redirect=/dashboard" className={buttonClasses('default')}>
            Sign In
          </Link>
        </div>
      </AuthCard>
    )
  }

  // The loader's verdict on the link, or the action's (the link died between opening and clicking).
  const failure = loaderData.failure ?? (form.errors ?? fields.token.errors)?.join(' ')
  if (failure) {
    return (
      <AuthCard title="Verify your e-mail address">
        <div className="flex flex-col gap-4">
          <Alert tone="error">{failure}</Alert>
          <p className="text-sm text-muted-foreground">
            Links work once and for 1 hour. Ask for a new one and use the latest e-mail.
          </p>
          <Link to="/email/request-verification" className={buttonClasses('default')}>
            Request a new verification link
          </Link>
        </div>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Verify your e-mail address"
      description="One click confirms that the address this link was sent to is yours."
    >
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name={fields.token.name} value={loaderData.token} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <StatusButton isPending={isPending} pendingText="Verifying…">
          Verify e-mail address
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
