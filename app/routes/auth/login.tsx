import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Link } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { AuthCard } from '~/components/auth-card'
import { ErrorList, Field } from '~/components/forms'
import { OAuthButtons } from '~/components/oauth-buttons'
import { StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { SignInSchema } from '~/services/account-schemas'
import { signInWithPassword } from '~/services/accounts.server'
import { useIsPending } from '~/utils/pending'
import { loadAuthPage, submitAuthForm } from './+parts/auth-page.server'
import { PasskeySignIn } from './+parts/passkey-sign-in'
import type { Route } from './+types/login'

export const meta: Route.MetaFunction = () => [
  { title: 'Sign in | Threadwork' },
  { name: 'description', content: 'Sign in to Threadwork with your e-mail and password.' },
]

export async function loader(args: Route.LoaderArgs) {
  return loadAuthPage(args)
}

export const headers: Route.HeadersFunction = keepRetryAfter

export async function action(args: Route.ActionArgs) {
  return submitAuthForm(args, SignInSchema, (input, ip) => signInWithPassword(database(), input, { ip }))
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'login',
    lastResult: actionData?.result,
    constraint: getZodConstraint(SignInSchema),
    defaultValue: { redirect: loaderData.redirect },
    shouldRevalidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
  })
  const signUpHref = loaderData.redirect
    ? `/signup?redirect=${encodeURIComponent(loaderData.redirect)}`
    : '/signup'

  return (
    <AuthCard
      title="Sign in"
      description="Welcome back. Sign in to your tasks and threads."
      footer={
        <>
          New to Threadwork?{' '}
          <Link to={signUpHref} className="font-medium text-primary underline-offset-4 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <PasskeySignIn redirect={loaderData.redirect} />
      <OAuthButtons providers={loaderData.providers} redirect={loaderData.redirect || undefined} divider />
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name={fields.redirect.name} value={loaderData.redirect} />
        <ErrorList id={form.errorId} errors={form.errors} />
        {/* "webauthn": the browser offers this site's passkeys among its suggestions (conditional mediation). */}
        <Field label="E-mail" meta={fields.email} type="email" autoComplete="username webauthn" autoFocus />
        <Field label="Password" meta={fields.password} type="password" autoComplete="current-password" />
        <div className="flex items-center justify-end text-sm">
          <Link to="/email/forgot-password" className="text-primary underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        </div>
        <StatusButton isPending={isPending} pendingText="Signing in…">
          Sign in
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}
