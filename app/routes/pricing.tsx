import { data, Link, type ShouldRevalidateFunctionArgs, useSearchParams } from 'react-router'
import { csrfTokenFor } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { Button, buttonClasses, StatusButton } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { clientConfig } from '~/env.server'
import {
  BILLING_KINDS,
  BILLING_TERMS,
  type BillingKind,
  FREE_WORKSPACE_FEATURE,
  findPlan,
  formatPrice,
  LIFETIME_REFERENCE_YEARS,
  lifetimeDiscountPercent,
  PLANS,
  type Plan,
  parseBillingKind,
  resolveCheckoutUrls,
  yearlyEquivalentCents,
} from '~/pricing'
import { stripeOptions } from '~/services/payments/stripe.server'
import { cn } from '~/utils/cn'
import { useIsPending } from '~/utils/pending'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import type { Route } from './+types/pricing'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: 'Pricing',
    description:
      'Threadwork in three tiers — Solo, Team and Agency — yearly or as a one-time lifetime licence, with up to 63% off the lifetime price.',
    path: '/pricing',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

/**
 * Resolves every option's checkout link on the server, where the configuration lives; the page
 * gets links for both kinds so the yearly/lifetime switch needs no second request.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const checkoutUrls = resolveCheckoutUrls(clientConfig().checkout)
  const soldByStripe = stripeOptions()
  if (Object.values(soldByStripe).some((kinds) => kinds.yearly || kinds.lifetime)) {
    // Buying through Stripe is a form that posts (to /payment/checkout) with this visitor's CSRF
    // token: the page is theirs alone and never stored by a shared cache.
    const csrfToken = await csrfTokenFor(request, context)
    return data(
      { checkoutUrls, soldByStripe, csrfToken },
      { headers: { 'Cache-Control': 'private, no-store' } },
    )
  }
  // Prices are in the build; the links come from configuration, so they are part of the version.
  return data(
    { checkoutUrls, soldByStripe, csrfToken: null },
    { headers: publicCacheHeaders(request, JSON.stringify(checkoutUrls)) },
  )
}

export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // The loader ignores the query string: flipping ?billing= needs no new data.
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false
  return defaultShouldRevalidate
}

/** The discount the switch advertises: the best any tier offers. */
const BEST_LIFETIME_DISCOUNT = Math.max(...PLANS.map(lifetimeDiscountPercent))

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const example = findPlan(2)
  // The URL is the switch's state, so a shared or reloaded link shows the same prices, and the
  // switch works as plain links without JavaScript.
  const [searchParams] = useSearchParams()
  const kind = parseBillingKind(searchParams.get('billing'))

  return (
    <main className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Pricing</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          One codebase with tasks, threaded comments, docs, a blog, AI chat and payments. Pick the tier that
          fits your team; pay yearly, or once for life.
        </p>
      </header>

      <BillingSwitch current={kind} />

      <ul className="mt-10 grid gap-6 lg:grid-cols-3">
        {PLANS.map((plan) => (
          <li key={plan.tier} className="flex">
            <PlanCard
              plan={plan}
              kind={kind}
              checkoutUrl={loaderData.checkoutUrls[plan.tier][kind]}
              isSoldByStripe={loaderData.soldByStripe[plan.tier][kind]}
            />
          </li>
        ))}
      </ul>

      <p className="mt-8 text-center text-sm text-muted-foreground">
        Prices in US dollars. Lifetime discounts compare the one-time price with {LIFETIME_REFERENCE_YEARS}{' '}
        years of the same tier on the yearly plan. Without a plan (Free):{' '}
        {FREE_WORKSPACE_FEATURE.toLowerCase()}.
      </p>

      <section aria-labelledby="pricing-questions" className="mx-auto mt-16 max-w-3xl">
        <h2 id="pricing-questions" className="text-2xl font-semibold tracking-tight">
          Questions
        </h2>
        <dl className="mt-6 divide-y rounded-lg border">
          <div className="p-5">
            <dt className="font-medium">What do I buy?</dt>
            <dd className="mt-2 text-sm text-muted-foreground">
              Access to the private repository with Threadwork's full source, to build your own products on.
              Each tier lists who may use it and what support comes with it.
            </dd>
          </div>
          <div className="p-5">
            <dt className="font-medium">What happens when a yearly plan ends?</dt>
            <dd className="mt-2 text-sm text-muted-foreground">
              You keep the code you have and may keep shipping it. New releases and support stop until you
              renew.
            </dd>
          </div>
          <div className="p-5">
            <dt className="font-medium">How is the lifetime discount worked out?</dt>
            <dd className="mt-2 text-sm text-muted-foreground">
              Against {LIFETIME_REFERENCE_YEARS} years of the yearly price: {example.name}'s lifetime licence
              costs {formatPrice(example.priceCents.lifetime)} instead of {LIFETIME_REFERENCE_YEARS} ×{' '}
              {formatPrice(example.priceCents.yearly)} = {formatPrice(yearlyEquivalentCents(example))}, which
              is {lifetimeDiscountPercent(example)}% less.
            </dd>
          </div>
        </dl>
        <p className="mt-6 text-sm text-muted-foreground">
          Something else?{' '}
          <Link
            to="/support"
            prefetch="intent"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Ask support
          </Link>
          .
        </p>
      </section>
    </main>
  )
}

function BillingSwitch({ current }: { current: BillingKind }) {
  return (
    <nav aria-label="Billing period" className="mt-10 flex justify-center">
      <ul className="inline-flex rounded-lg border bg-muted p-1">
        {BILLING_KINDS.map((kind) => {
          const isCurrent = kind === current
          return (
            <li key={kind}>
              <Link
                to={`/pricing?billing=${kind}`}
                replace
                preventScrollReset
                aria-current={isCurrent ? 'true' : undefined}
                className={cn(
                  'inline-flex h-9 items-center rounded-md px-4 text-sm font-medium transition-colors',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  isCurrent
                    ? 'bg-background text-foreground shadow-sm'
                    : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {BILLING_TERMS[kind].label}
                {kind === 'lifetime' ? (
                  <span className="ml-2 text-xs text-primary">up to {BEST_LIFETIME_DISCOUNT}% off</span>
                ) : null}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function PlanCard({
  plan,
  kind,
  checkoutUrl,
  isSoldByStripe,
}: {
  plan: Plan
  kind: BillingKind
  checkoutUrl: string | null
  isSoldByStripe: boolean
}) {
  const terms = BILLING_TERMS[kind]
  const discount = lifetimeDiscountPercent(plan)
  const headingId = `tier-${plan.tier}-name`

  return (
    <article
      aria-labelledby={headingId}
      data-testid={`plan-tier-${plan.tier}`}
      className={cn(
        'flex w-full flex-col rounded-xl border bg-card p-6 shadow-sm',
        plan.isFeatured && 'border-primary ring-1 ring-primary',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-xl font-semibold">
          {plan.name}
        </h2>
        {plan.isFeatured ? (
          <Badge tone="accent" weight="medium" isWide>
            Most popular
          </Badge>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{plan.audience}</p>

      <p className="mt-6 flex items-baseline gap-2">
        <span className="text-4xl font-bold tracking-tight" data-testid="price">
          {formatPrice(plan.priceCents[kind])}
        </span>
        <span className="text-sm text-muted-foreground">{terms.priceSuffix}</span>
      </p>
      {/* One line under every price, so the cards keep their shape when the switch flips. */}
      <p className="mt-2 min-h-6 text-sm text-muted-foreground" data-testid="price-note">
        {kind === 'yearly' ? (
          'Billed once a year'
        ) : discount > 0 ? (
          <>
            <Badge tone="emerald" className="mr-2">
              {discount}% off
            </Badge>
            vs. <s>{formatPrice(yearlyEquivalentCents(plan))}</s> for {LIFETIME_REFERENCE_YEARS} years of
            yearly
          </>
        ) : (
          `The price of ${LIFETIME_REFERENCE_YEARS} years of yearly, then nothing more`
        )}
      </p>

      <div className="mt-6">
        {isSoldByStripe ? (
          <BuyForm plan={plan} kind={kind} />
        ) : checkoutUrl ? (
          <a
            href={checkoutUrl}
            rel="nofollow"
            className={buttonClasses(plan.isFeatured ? 'default' : 'outline', 'lg', 'w-full')}
          >
            Buy {plan.name} {terms.label.toLowerCase()}
          </a>
        ) : (
          // Payments are not configured: a button that goes nowhere would be a lie, and one that
          // sends people to support would read like a purchase. Say plainly that it is not open.
          <>
            <Button
              disabled
              variant="outline"
              size="lg"
              className="w-full"
              aria-describedby={`${headingId}-checkout-note`}
            >
              Checkout coming soon
            </Button>
            <p id={`${headingId}-checkout-note`} className="mt-2 text-center text-xs text-muted-foreground">
              Want to be told when it opens?{' '}
              <Link to="/support" className="font-medium text-primary underline-offset-4 hover:underline">
                Write to support
              </Link>
            </p>
          </>
        )}
      </div>

      <p className="mt-6 text-sm">{terms.summary}</p>
      <ul className="mt-4 space-y-2 text-sm" aria-label={`${plan.name} includes`}>
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </article>
  )
}

/** Starts a Stripe Checkout Session for this option; without JavaScript a plain form post. */
function BuyForm({ plan, kind }: { plan: Plan; kind: BillingKind }) {
  const isPending = useIsPending({
    formAction: '/payment/checkout',
    fields: { tier: String(plan.tier), plan: kind },
  })
  return (
    <ActionForm action="/payment/checkout">
      <input type="hidden" name="tier" value={plan.tier} />
      <input type="hidden" name="plan" value={kind} />
      <StatusButton
        isPending={isPending}
        pendingText="Opening checkout…"
        variant={plan.isFeatured ? 'default' : 'outline'}
        size="lg"
        className="w-full"
      >
        Buy {plan.name} {BILLING_TERMS[kind].label.toLowerCase()}
      </StatusButton>
    </ActionForm>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
