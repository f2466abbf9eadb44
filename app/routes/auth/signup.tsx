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
import { PASSWORD_MIN_LENGTH, SignUpSchema } from '~/services/account-schemas'
import { signUp } from '~/services/accounts.server'
import { ONBOARDING_PATH } from '~/services/onboarding-steps'
import { useIsPending } from '~/utils/pending'
import { loadAuthPage, submitAuthForm } from './+parts/auth-page.server'
import type { Route } from './+types/signup'

export const meta: Route.MetaFunction = () => [
  { title: 'Create an account | Threadwork' },
  { name: 'description', content: 'Create a Threadwork account to keep, share and discuss tasks.' },
]

export async function loader(args: Route.LoaderArgs) {
  return loadAuthPage(args)
}

export const headers: Route.HeadersFunction = keepRetryAfter

export async function action(args: Route.ActionArgs) {
  // A new account is guided through onboarding, unless it was on its way somewhere.
  return submitAuthForm(args, SignUpSchema, (input, ip) => signUp(database(), input, { ip }), {
    toast: (user) => ({
      type: 'success',
      title: 'Welcome to Threadwork!',
      description: `We sent a link to ${user.email} to verify your address.`,
    }),
    landing: ONBOARDING_PATH,
    isNewAccount: true,
  })
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'signup',
    lastResult: actionData?.result,
    constraint: getZodConstraint(SignUpSchema),
    shouldRevalidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
  })
  const loginHref = loaderData.redirect
    ? `/login?redirect=${encodeURIComponent(loaderData.redirect)}`
    : '/login'

  return (
    <AuthCard
      title="Create an account"
      description="Keep tasks, share them, and talk them through."
      footer={
        <>
          Already have an account?{' '}
          <Link to={loginHref} className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <OAuthButtons providers={loaderData.providers} redirect={loaderData.redirect || undefined} divider />
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name={fields.redirect.name} value={loaderData.redirect} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label="Name" meta={fields.name} autoComplete="name" autoFocus />
        <Field label="E-mail" meta={fields.email} type="email" autoComplete="email" />
        <Field
          label="Password"
          meta={fields.password}
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <StatusButton isPending={isPending} pendingText="Creating account…">
          Create account
        </StatusButton>
      </ActionForm>
    </AuthCard>
  )
}
