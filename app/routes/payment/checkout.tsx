import { data, Link, redirect } from 'react-router'
import { getUser } from '~/auth/context.server'
import { CSRF_FIELD } from '~/components/csrf-input'
import { RouteErrorScreen } from '~/components/error-screens'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { type CheckoutInput, startCheckout } from '~/services/payments/checkout.server'
import { CheckoutOptionSchema } from '~/services/payments/checkout-schemas'
import { readFormData } from '~/utils/form-data.server'
import type { Route } from './+types/checkout'

export const meta: Route.MetaFunction = () => [
  { title: 'Checkout | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

type Problem = { title: string; message: string }

const NOT_CONFIGURED: Problem = {
  title: 'Checkout is not configured',
  message: 'This option cannot be bought here yet. Write to support and we will sort it out with you.',
}
const PROVIDER_FAILED: Problem = {
  title: 'Checkout could not start',
  message: 'The payment provider did not take the request, and nothing was charged. Try again in a moment.',
}

/**
 * Starts checkout for one option and sends the browser on: to Stripe's hosted page, or to the
 * option's configured checkout link. Visitors need not be signed in: the webhook finds or creates
 * their account from the address they pay with.
 */
async function checkout(
  request: Request,
  context: Route.LoaderArgs['context'],
  form: FormData | URLSearchParams,
) {
  return handleForm(
    form,
    CheckoutOptionSchema,
    async (input: CheckoutInput) => {
      const user = await getUser(request, context)
      // The form's CSRF token is unique to this browser: it keeps one person's resubmits on one session.
      const attemptKey = form instanceof FormData ? String(form.get(CSRF_FIELD) ?? '') || null : null
      try {
        const start = await startCheckout(database(), user, input, attemptKey)
        if (start.kind === 'not-configured') return data({ problem: NOT_CONFIGURED }, { status: 404 })
        return redirect(start.url, 303)
      } catch (error) {
        console.error('Could not start a Stripe checkout:', error)
        return data({ problem: PROVIDER_FAILED }, { status: 502 })
      }
    },
    { refusal: (message) => ({ problem: { title: 'That is not a plan we sell', message } }) },
  )
}

/** A shareable link: /payment/checkout?tier=2&plan=lifetime. */
export function loader({ request, context, url }: Route.LoaderArgs) {
  return checkout(request, context, url.searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  return checkout(request, context, await readFormData(request))
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { problem } = actionData ?? loaderData
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      <Alert tone="error" className="mt-6">
        <AlertTitle>{problem.title}</AlertTitle>
        <p className="mt-1">{problem.message}</p>
      </Alert>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to="/pricing" className={buttonClasses('default')}>
          Back to pricing
        </Link>
        <Link to="/support" className={buttonClasses('outline')}>
          Contact support
        </Link>
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
