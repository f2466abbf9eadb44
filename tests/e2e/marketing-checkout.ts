import type { BillingKind, TierId } from '../../app/pricing'

/**
 * Checkout links the browser tests' server is configured with, one per way a link can be found:
 * a tier's own link (tier 2 lifetime, tier 3 yearly), the yearly link every other yearly option
 * falls back to, and nothing for tier 3 lifetime, which must say checkout is coming soon.
 * Nothing follows these links: the tests read where the buttons point.
 */
export const CHECKOUT_ENV = {
  CHECKOUT_URL_YEARLY: 'https://checkout.example.test/yearly',
  CHECKOUT_URL_TIER_2_LIFETIME: 'https://checkout.example.test/tier-2-lifetime',
  CHECKOUT_URL_TIER_3_YEARLY: 'https://checkout.example.test/tier-3-yearly',
}

/**
 * The options sold through Stripe (the local stand-in), which take precedence over any link: both
 * of tier 1's. Their buttons are forms that post to /payment/checkout.
 */
export const STRIPE_OPTIONS: [TierId, BillingKind][] = [
  [1, 'yearly'],
  [1, 'lifetime'],
]
