import Stripe from 'stripe'
import { env } from '~/env.server'
import type { BillingKind, TierId } from '~/pricing'

/**
 * The Stripe client and the price of each option, from configuration. Stripe is on when the
 * secret key is set; an option is sold through Stripe when its price id is set too, and otherwise
 * falls back to the configured checkout link (app/pricing.ts).
 */

let cached: { config: string; client: Stripe } | undefined

/** The configured client, or null when STRIPE_SECRET_KEY is unset. */
export function stripeClient(): Stripe | null {
  const e = env()
  if (!e.STRIPE_SECRET_KEY) return null
  const config = `${e.STRIPE_SECRET_KEY} ${e.STRIPE_API_URL}`
  if (cached?.config !== config) {
    const api = new URL(e.STRIPE_API_URL)
    cached = {
      config,
      client: new Stripe(e.STRIPE_SECRET_KEY, {
        host: api.hostname,
        port: api.port || (api.protocol === 'https:' ? 443 : 80),
        protocol: api.protocol === 'https:' ? 'https' : 'http',
        // A request that fails is answered by the person trying again (same idempotency key),
        // not by the SDK retrying while they wait.
        maxNetworkRetries: 0,
        timeout: 20_000,
      }),
    }
  }
  return cached.client
}

/** Every option's Stripe price id as configured; a missing one is sold through its link instead. */
export function stripePrices(): Record<TierId, Record<BillingKind, string | undefined>> {
  const e = env()
  return {
    1: { yearly: e.STRIPE_PRICE_TIER_1_YEARLY, lifetime: e.STRIPE_PRICE_TIER_1_LIFETIME },
    2: { yearly: e.STRIPE_PRICE_TIER_2_YEARLY, lifetime: e.STRIPE_PRICE_TIER_2_LIFETIME },
    3: { yearly: e.STRIPE_PRICE_TIER_3_YEARLY, lifetime: e.STRIPE_PRICE_TIER_3_LIFETIME },
  }
}

/** Which options "Buy" sends to Stripe Checkout (the rest use their configured links). */
export function stripeOptions(): Record<TierId, Record<BillingKind, boolean>> {
  const prices = stripePrices()
  const isOn = Boolean(env().STRIPE_SECRET_KEY)
  const sold = (tier: TierId) => ({
    yearly: isOn && Boolean(prices[tier].yearly),
    lifetime: isOn && Boolean(prices[tier].lifetime),
  })
  return { 1: sold(1), 2: sold(2), 3: sold(3) }
}

/** The price id to sell this option with, when Stripe and the option are both configured. */
export function stripePriceFor(tier: TierId, kind: BillingKind): string | null {
  if (!env().STRIPE_SECRET_KEY) return null
  return stripePrices()[tier][kind] ?? null
}

/**
 * Where Stripe's hosted pages live, for the CSP's form-action: a form that posts to us and is
 * redirected to Checkout or the customer portal is held to it. A stand-in for Stripe's API (in
 * tests) serves its hosted pages at its own origin.
 */
export function stripeHostedOrigins(): string[] {
  const e = env()
  if (!e.STRIPE_SECRET_KEY) return []
  const api = new URL(e.STRIPE_API_URL)
  if (api.hostname === 'api.stripe.com') return ['https://checkout.stripe.com', 'https://billing.stripe.com']
  return [api.origin]
}
