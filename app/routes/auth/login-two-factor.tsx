import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { csrfTokenFor, requireAnonymous } from '~/auth/context.server'
import { finishSecondFactor, pendingSignIn } from '~/auth/sign-in.server'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { ErrorList, Field } from '~/components/forms'
import { StatusButton } from '~/components/ui/button'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { RateLimited } from '~/services/errors'
import { SecondFactorSchema } from '~/services/two-factor-schemas'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { safeRedirect } from '~/utils/redirect.server'
import type { z } from '~/utils/zod'
import type { Route } from './+types/login-two-factor'

export const meta: Route.MetaFunction = () => [
  { title: 'Two-factor sign-in | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = keepRetryAfter

/**
 * The second step of a sign-in for an account with two-factor on: a code from the authenticator
 * app, or a recovery code. Reached only with a pending sign-in (app/auth/sign-in.server.ts); it
 * holds no session until a code is right.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context)
  if (!pendingSignIn(request)) throw redirect('/login')
  return data(
    { csrfToken: await csrfTokenFor(request, context) },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const finish = async ({ intent, code }: z.output<typeof SecondFactorSchema>) => {
    const signedIn = await finishSecondFactor({ request, context }, { code, kind: intent })
    const headers = new Headers()
    for (const cookie of signedIn.setCookies) headers.append('Set-Cookie', cookie)
    return redirect(safeRedirect(signedIn.redirectTo, '/dashboard'), { headers })
  }
  return handleForm(
    await readFormData(request),
    SecondFactorSchema,
    { totp: finish, recovery: finish },
    { hideFields: ['code'], message: minutesToWait },
  )
}

function minutesToWait(error: Error) {
  if (!(error instanceof RateLimited)) return error.message
  const minutes = Math.ceil(error.retryAfter / 60)
  return `${error.message} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

export default function TwoFactorSignIn({ actionData }: Route.ComponentProps) {
  return (
    <AuthCard
      title="Two-factor sign-in"
      description="Enter the code your authenticator app shows for Threadwork."
      footer={
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Start again
        </Link>
      }
    >
      <CodeForm intent="totp" actionData={actionData} />
      <details className="mt-6 text-sm" open={actionData?.intent === 'recovery'}>
        <summary className="cursor-pointer text-primary">Use a recovery code instead</summary>
        <div className="mt-4">
          <CodeForm intent="recovery" actionData={actionData} />
        </div>
      </details>
    </AuthCard>
  )
}

function CodeForm({
  intent,
  actionData,
}: {
  intent: 'totp' | 'recovery'
  actionData: Route.ComponentProps['actionData']
}) {
  const isPending = useIsPending({ intent })
  const [form, fields] = useForm({
    id: `two-factor-${intent}`,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SecondFactorSchema }),
  })
  const isTotp = intent === 'totp'
  return (
    <ActionForm intent={intent} className="flex flex-col gap-4" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} />
      {isTotp ? (
        <Field
          label="Code"
          meta={fields.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={7}
          autoFocus
          required
        />
      ) : (
        <Field label="Recovery code" meta={fields.code} autoComplete="off" spellCheck={false} required />
      )}
      <StatusButton isPending={isPending} pendingText="Checking…" variant={isTotp ? 'default' : 'outline'}>
        {isTotp ? 'Verify' : 'Use recovery code'}
      </StatusButton>
    </ActionForm>
  )
}
