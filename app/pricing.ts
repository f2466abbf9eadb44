/**
 * What Threadwork sells and for how much: three tiers, each as a yearly plan or a one-time
 * lifetime licence. Every price, feature and discount on the site comes from this file, so a
 * price change is one edit here (and the tests prove the advertised discounts still hold).
 *
 * Money is integer cents (US dollars), never floats.
 *
 * "Yearly-equivalent" price of a lifetime licence: what the same tier costs over
 * LIFETIME_REFERENCE_YEARS years on the yearly plan, i.e. `yearly × 3`. The lifetime discount is
 * how much less the lifetime price is than that:
 *
 *   discount % = 100 × (1 − lifetime ÷ (yearly × 3))
 *
 *   tier 1: $237 vs 3 × $79  = $237  →  0 %  (no discount, so no badge)
 *   tier 2: $312 vs 3 × $200 = $600  → 48 %  (docs/product-rules.md §7)
 *   tier 3: $555 vs 3 × $500 = $1500 → 63 %  (docs/product-rules.md §7)
 *
 * The prices are chosen so the percentages are exact integers, never rounded: the badge a visitor
 * reads is the arithmetic they can check. Importing this module throws if an edit breaks that.
 */

import type { PlanId } from '~/domain/constants'
import { entitlementsFor, workspaceSizeFeature } from '~/domain/entitlements'

const TIER_IDS = [1, 2, 3] as const
export type TierId = (typeof TIER_IDS)[number]

export const BILLING_KINDS = ['yearly', 'lifetime'] as const
export type BillingKind = (typeof BILLING_KINDS)[number]

/** A lifetime price is compared with this many years of the yearly price. */
export const LIFETIME_REFERENCE_YEARS = 3

const CURRENCY = 'USD'

export type Plan = {
  tier: TierId
  name: string
  /** Who the tier is for, in one line. */
  audience: string
  priceCents: Record<BillingKind, number>
  features: readonly string[]
  /** The tier the page draws attention to. */
  isFeatured: boolean
}

/** The size of a team workspace the plan's holder owns (app/domain/entitlements.ts), as a feature line. */
function workspaceFeature(plan: PlanId) {
  return workspaceSizeFeature(entitlementsFor({ plan, accessUntil: null }).membersPerWorkspace)
}

/** What the free plan gives in the same words, for the line under the cards. */
export const FREE_WORKSPACE_FEATURE = workspaceFeature('free')

export const PLANS: readonly Plan[] = [
  {
    tier: 1,
    name: 'Solo',
    audience: 'One developer shipping their own product.',
    priceCents: { yearly: 7_900, lifetime: 23_700 },
    features: [
      'The complete source: tasks, threaded comments, docs, blog, AI chat, payments',
      'One developer seat',
      workspaceFeature('tier1'),
      'Unlimited personal and commercial projects',
      'Access to the private GitHub repository',
      'Community support in GitHub Discussions',
    ],
    isFeatured: false,
  },
  {
    tier: 2,
    name: 'Team',
    audience: 'A product team building on one codebase.',
    priceCents: { yearly: 20_000, lifetime: 31_200 },
    features: [
      'Everything in Solo',
      'Up to 5 developer seats',
      workspaceFeature('tier2'),
      'E-mail support, answered within 2 business days',
      'Upgrade guides for every release',
    ],
    isFeatured: true,
  },
  {
    tier: 3,
    name: 'Agency',
    audience: 'Studios that build products for clients.',
    priceCents: { yearly: 50_000, lifetime: 55_500 },
    features: [
      'Everything in Team',
      'Unlimited developer seats',
      workspaceFeature('tier3'),
      'Unlimited client projects',
      'Priority e-mail support, answered within 1 business day',
      'A one-hour architecture review call each year',
    ],
    isFeatured: false,
  },
]

/** What each kind of purchase means, shown on every card. */
export const BILLING_TERMS: Record<BillingKind, { label: string; priceSuffix: string; summary: string }> = {
  yearly: {
    label: 'Yearly',
    priceSuffix: '/ year',
    summary: 'Updates and support for 12 months; renews yearly, cancel any time and keep what you have.',
  },
  lifetime: {
    label: 'Lifetime',
    priceSuffix: 'once',
    summary: 'One payment. Updates and support for as long as Threadwork is maintained.',
  },
}

const DEFAULT_BILLING_KIND: BillingKind = 'yearly'

/** `?billing=` from the URL; anything unknown falls back to yearly rather than failing. */
export function parseBillingKind(value: string | null | undefined): BillingKind {
  return BILLING_KINDS.find((kind) => kind === value) ?? DEFAULT_BILLING_KIND
}

/** "Team" for `tier2`; "Free" for the free plan. */
export function planName(plan: PlanId) {
  return plan === 'free' ? 'Free' : findPlan(Number(plan.slice(4)) as TierId).name
}

export function findPlan(tier: TierId): Plan {
  const plan = PLANS.find((candidate) => candidate.tier === tier)
  if (!plan) throw new Error(`No plan for tier ${tier}`)
  return plan
}

/** The lifetime price's yardstick: LIFETIME_REFERENCE_YEARS years of the yearly price. */
export function yearlyEquivalentCents(plan: Plan): number {
  return plan.priceCents.yearly * LIFETIME_REFERENCE_YEARS
}

/**
 * The lifetime discount in whole percent, computed from the prices (never stored beside them, so
 * the two cannot drift apart). Exact by construction: see `assertExactDiscounts`.
 */
export function lifetimeDiscountPercent(plan: Plan): number {
  const reference = yearlyEquivalentCents(plan)
  return 100 - (plan.priceCents.lifetime * 100) / reference
}

/** Integer cents → "$312" or "$312.50" (cents only when there are any). */
export function formatPrice(cents: number): string {
  const hasCents = cents % 100 !== 0
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: CURRENCY,
    minimumFractionDigits: hasCents ? 2 : 0,
    maximumFractionDigits: hasCents ? 2 : 0,
  }).format(cents / 100)
}

/** Cents in any currency Stripe charged (a receipt's amount): "$312.00", "€55.50". */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100)
}

/**
 * Checkout links as configured (see `clientConfig().checkout`): one per tier and kind, one per
 * kind, and one for everything. Any of them may be missing.
 */
export type CheckoutUrls = {
  public?: string
  yearly?: string
  lifetime?: string
  tiers: Record<TierId, { yearly?: string; lifetime?: string }>
}

/**
 * Where "Buy" goes for one option: the tier's own link for that kind, else the kind's generic
 * link, else the generic public link. `null` means nothing is configured, and the page says
 * checkout is not open yet instead of pointing somewhere that cannot take the payment.
 */
export function checkoutUrlFor(urls: CheckoutUrls, tier: TierId, kind: BillingKind): string | null {
  return urls.tiers[tier]?.[kind] ?? urls[kind] ?? urls.public ?? null
}

/** Every option's resolved link, so the page can switch kinds without asking the server again. */
export function resolveCheckoutUrls(urls: CheckoutUrls): Record<TierId, Record<BillingKind, string | null>> {
  const resolve = (tier: TierId) => ({
    yearly: checkoutUrlFor(urls, tier, 'yearly'),
    lifetime: checkoutUrlFor(urls, tier, 'lifetime'),
  })
  return { 1: resolve(1), 2: resolve(2), 3: resolve(3) }
}

/**
 * Fails at import when a price edit breaks what the page promises: integer cents, prices rising
 * with the tier, and whole-number lifetime discounts (a badge saying 48 % must be exactly 48 %).
 */
function assertExactDiscounts(plans: readonly Plan[]) {
  plans.forEach((plan, index) => {
    for (const kind of BILLING_KINDS) {
      const cents = plan.priceCents[kind]
      if (!Number.isInteger(cents) || cents <= 0) {
        throw new Error(`Tier ${plan.tier} ${kind} price must be positive integer cents, got ${cents}`)
      }
      const previous = plans[index - 1]
      if (previous && previous.priceCents[kind] >= cents) {
        throw new Error(`Tier ${plan.tier} ${kind} price must be higher than tier ${previous.tier}'s`)
      }
    }
    const discount = lifetimeDiscountPercent(plan)
    if (!Number.isInteger(discount) || discount < 0) {
      throw new Error(
        `Tier ${plan.tier}: lifetime ${plan.priceCents.lifetime} vs ${yearlyEquivalentCents(plan)} is a ${discount}% discount; it must be a whole, non-negative percentage`,
      )
    }
  })
}

assertExactDiscounts(PLANS)
