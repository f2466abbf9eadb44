import { useLocation, useRouteLoaderData } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { StatusButton } from '~/components/ui/button'
import type { loader as rootLoader } from '~/root'
import { useIsPending } from '~/utils/pending'

/** The toast title of a resent link; the banner and the page show it without JavaScript too. */
export const VERIFICATION_SENT = 'Verification e-mail sent'

const ACTION = '/email/request-verification'

/**
 * Asks a signed-in user with an unverified address to verify it: until then, tasks shared with
 * the address and mentions wait. One button resends the link and comes back to this page. The
 * e-mail pages say the same at length, so the banner stays off them.
 */
export default function VerifyEmailBanner() {
  const location = useLocation()
  const isSending = useIsPending({ formAction: ACTION })
  const toast = useRouteLoaderData<typeof rootLoader>('root')?.toast
  if (location.pathname.startsWith('/email/')) return null
  const isSent = toast?.title === VERIFICATION_SENT

  return (
    <aside
      aria-label="E-mail verification"
      className="border-b border-amber-500/40 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-50"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 text-sm">
        <p>Verify your e-mail address to receive shared tasks and mentions.</p>
        {isSent ? (
          <p role="status" className="font-medium">
            {toast.description ?? toast.title}
          </p>
        ) : (
          <ActionForm action={ACTION} redirectTo>
            <StatusButton isPending={isSending} pendingText="Sending…" size="sm" variant="outline">
              Resend verification e-mail
            </StatusButton>
          </ActionForm>
        )}
      </div>
    </aside>
  )
}
