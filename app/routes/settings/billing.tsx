import { Link, redirect } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { formatDay, optionName } from '~/components/payments/plan-names'
import { RepositoryInvitation } from '~/components/payments/repository-invitation'
import { SettingsSection } from '~/components/settings/section'
import { Alert, AlertTitle } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import type { PlanId } from '~/domain/constants'
import { entitlementsFor, workspaceSizeFeature } from '~/domain/entitlements'
import { handleForm } from '~/http/form-action.server'
import { formatMoney, planName } from '~/pricing'
import { getBilling, openCustomerPortal } from '~/services/payments/billing.server'
import { GitHubLoginSchema, setGitHubLogin } from '~/services/payments/repository-invitations.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { localPath } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import type { Route } from './+types/billing'

export const meta: Route.MetaFunction = () => [{ title: 'Billing | Threadwork' }]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const billing = await getBilling(database(), user)
  return {
    ...billing,
    accessUntil: billing.accessUntil?.toISOString() ?? null,
    entitlements: entitlementsFor({ plan: billing.plan, accessUntil: null }),
    purchases: billing.purchases.map((purchase) => ({
      ...purchase,
      createdAt: purchase.createdAt.toISOString(),
      refundedAt: purchase.refundedAt?.toISOString() ?? null,
    })),
  }
}

/**
 * Two forms: open the Stripe customer portal, and name the GitHub account to invite (also posted
 * from the success page, which `redirectTo` brings the buyer back to).
 */
const BillingIntent = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('portal') }),
    GitHubLoginSchema.safeExtend({ intent: z.literal('github-login') }),
  ],
  { error: 'Choose what to do.' },
)

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const formData = await readFormData(request)
  const back = localPath(formData.get('redirectTo')) ?? '/settings/billing'
  return handleForm(
    formData,
    BillingIntent,
    {
      portal: async () => redirect(await openCustomerPortal(db, user), 303),
      'github-login': async ({ githubLogin }) => {
        await setGitHubLogin(db, user, githubLogin)
        return redirectWithToast(back, { type: 'success', title: 'Invitation on its way' })
      },
    },
    { refusal: (formError) => ({ formError }) },
  )
}

export default function Billing({ loaderData, actionData }: Route.ComponentProps) {
  const billing = loaderData
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div>
        <h1 className="text-2xl font-semibold">Billing</h1>
        <p className="text-sm text-muted-foreground">
          Your plan, your purchases and their receipts.{' '}
          <Link to="/settings" className="font-medium text-primary underline-offset-4 hover:underline">
            Account settings
          </Link>
        </p>
      </div>
      {actionData?.formError && billing.invitation?.status !== 'needs-login' ? (
        <Alert tone="error">{actionData.formError}</Alert>
      ) : null}
      <PlanSection billing={billing} />
      {billing.invitation ? (
        <SettingsSection
          title="Repository access"
          description="The private GitHub repository with Threadwork's source."
        >
          <RepositoryInvitation invitation={billing.invitation} formError={actionData?.formError} />
        </SettingsSection>
      ) : null}
      <PurchasesSection purchases={billing.purchases} />
    </main>
  )
}

type Billing = Route.ComponentProps['loaderData']

function PlanSection({ billing }: { billing: Billing }) {
  const isPortalPending = useIsPending({ intent: 'portal' })
  const hasEnded = billing.plan === 'free' && billing.heldPlan !== 'free' && billing.accessUntil !== null
  return (
    <SettingsSection title="Plan" description="What you have now, and until when.">
      <p className="text-lg font-medium" data-testid="current-plan">
        {billing.plan === 'free' || !billing.planKind ? 'Free' : optionName(billing.plan, billing.planKind)}
      </p>
      <p className="mt-1 text-sm text-muted-foreground" data-testid="plan-term">
        {billing.plan !== 'free' && billing.planKind === 'lifetime'
          ? 'Lifetime access: no renewals, nothing more to pay.'
          : billing.plan !== 'free' && billing.accessUntil
            ? billing.renews
              ? `Renews on ${formatDay(billing.accessUntil)}.`
              : `Access until ${formatDay(billing.accessUntil)}; it does not renew.`
            : hasEnded && billing.accessUntil
              ? `Your ${planName(billing.heldPlan as PlanId)} plan ended on ${formatDay(billing.accessUntil)}.`
              : 'No paid plan yet.'}
      </p>
      {billing.paymentFailed ? (
        <Alert tone="error" className="mt-4">
          <AlertTitle>The last renewal payment failed</AlertTitle>
          <p>Update your card in the customer portal; Stripe tries again over the next days.</p>
        </Alert>
      ) : null}
      <dl className="mt-4 grid gap-1 text-sm">
        <div className="flex gap-2">
          <dt className="text-muted-foreground">AI chat messages per day:</dt>
          <dd>{billing.entitlements.aiMessagesPerDay}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-muted-foreground">Workspace size:</dt>
          <dd>{workspaceSizeFeature(billing.entitlements.membersPerWorkspace)}</dd>
        </div>
      </dl>
      <div className="mt-5 flex flex-wrap gap-3">
        {billing.canOpenPortal ? (
          <ActionForm intent="portal">
            <StatusButton isPending={isPortalPending} pendingText="Opening Stripe…" variant="outline">
              Manage billing in Stripe
            </StatusButton>
          </ActionForm>
        ) : null}
        {billing.plan === 'free' || billing.planKind === 'yearly' ? (
          <Link to="/pricing" className={buttonClasses(billing.plan === 'free' ? 'default' : 'ghost')}>
            {billing.plan === 'free' ? 'See plans' : 'Plans and lifetime licences'}
          </Link>
        ) : null}
      </div>
    </SettingsSection>
  )
}

function PurchasesSection({ purchases }: { purchases: Billing['purchases'] }) {
  return (
    <SettingsSection title="Purchases" description="Every payment, with its receipt.">
      {purchases.length === 0 ? (
        <p className="text-sm text-muted-foreground">No purchases yet.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Purchases">
          {purchases.map((purchase) => (
            <li key={purchase.id} className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm">
              <div>
                <p className="font-medium">{optionName(purchase.tier, purchase.kind)}</p>
                <p className="text-muted-foreground">
                  {formatDay(purchase.createdAt)} · {formatMoney(purchase.amountCents, purchase.currency)}
                </p>
              </div>
              <div className="flex items-center gap-3">
                {purchase.refundedAt ? (
                  <Badge tone="amber">Refunded</Badge>
                ) : (
                  <Badge tone="emerald">Paid</Badge>
                )}
                <Link
                  to={`/settings/billing/receipts/${purchase.id}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  aria-label={`Receipt for ${optionName(purchase.tier, purchase.kind)}, ${formatDay(purchase.createdAt)}`}
                >
                  Receipt
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
