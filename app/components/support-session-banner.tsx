import { ActionForm } from '~/components/action-form'
import { StatusButton } from '~/components/ui/button'
import type { SessionUser } from '~/services/session-user'
import { useIsPending } from '~/utils/pending'

const STOP_ACTION = '/admin/sign-in-as/stop'

/**
 * On every page of a support session ("sign in as", /admin): whose account this is, and the one
 * button that ends it and hands the admin their own session back. A plain form, so it works
 * without JavaScript.
 */
export default function SupportSessionBanner({ user }: { user: Pick<SessionUser, 'name' | 'email'> }) {
  const isStopping = useIsPending({ formAction: STOP_ACTION })
  return (
    <aside
      aria-label="Support session"
      className="border-b border-sky-600/40 bg-sky-50 text-sky-950 dark:bg-sky-950 dark:text-sky-50"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 text-sm">
        <p>
          You are signed in as <strong>{user.name || user.email}</strong> ({user.email}) for support. What you
          do is done as them.
        </p>
        <ActionForm action={STOP_ACTION}>
          <StatusButton isPending={isStopping} pendingText="Stopping…" size="sm" variant="outline">
            Stop signing in as {user.name || user.email}
          </StatusButton>
        </ActionForm>
      </div>
    </aside>
  )
}
