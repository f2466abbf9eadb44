import { describe, expect, test } from 'vitest'
import {
  BILLING_KINDS,
  type CheckoutUrls,
  checkoutUrlFor,
  FREE_WORKSPACE_FEATURE,
  findPlan,
  formatPrice,
  LIFETIME_REFERENCE_YEARS,
  lifetimeDiscountPercent,
  PLANS,
  parseBillingKind,
  planName,
  resolveCheckoutUrls,
  yearlyEquivalentCents,
} from './pricing'

describe('prices and lifetime discounts', () => {
  test('three tiers, each sold yearly and for a lifetime, in whole positive cents', () => {
    expect(PLANS.map((plan) => plan.tier)).toEqual([1, 2, 3])
    for (const plan of PLANS) {
      for (const kind of BILLING_KINDS) {
        expect(Number.isInteger(plan.priceCents[kind])).toBe(true)
        expect(plan.priceCents[kind]).toBeGreaterThan(0)
      }
      expect(plan.features.length).toBeGreaterThan(0)
    }
  })

  test('the product rules’ discounts (§7): 48% for tier 2 and 63% for tier 3; none for tier 1', () => {
    expect(lifetimeDiscountPercent(findPlan(1))).toBe(0)
    expect(lifetimeDiscountPercent(findPlan(2))).toBe(48)
    expect(lifetimeDiscountPercent(findPlan(3))).toBe(63)
  })

  test('each discount is exact in integer cents, not a rounded figure', () => {
    for (const plan of PLANS) {
      const discount = lifetimeDiscountPercent(plan)
      // lifetime = yearly × years × (100 − discount) / 100, with no remainder anywhere.
      expect(plan.priceCents.lifetime * 100).toBe(
        plan.priceCents.yearly * LIFETIME_REFERENCE_YEARS * (100 - discount),
      )
    }
  })

  test('the yearly-equivalent price is three years of the yearly price', () => {
    expect(LIFETIME_REFERENCE_YEARS).toBe(3)
    expect(yearlyEquivalentCents(findPlan(2))).toBe(findPlan(2).priceCents.yearly * 3)
    // What the pricing page prints for Team and Agency.
    expect([
      formatPrice(findPlan(2).priceCents.lifetime),
      formatPrice(yearlyEquivalentCents(findPlan(2))),
    ]).toEqual(['$312', '$600'])
    expect([
      formatPrice(findPlan(3).priceCents.lifetime),
      formatPrice(yearlyEquivalentCents(findPlan(3))),
    ]).toEqual(['$555', '$1,500'])
  })

  test('higher tiers cost more, in both kinds', () => {
    for (const kind of BILLING_KINDS) {
      const prices = PLANS.map((plan) => plan.priceCents[kind])
      expect([...prices].sort((a, b) => a - b)).toEqual(prices)
      expect(new Set(prices).size).toBe(prices.length)
    }
  })

  test('formats cents as dollars, with cents only when there are some', () => {
    expect(formatPrice(7_900)).toBe('$79')
    expect(formatPrice(150_000)).toBe('$1,500')
    expect(formatPrice(1_050)).toBe('$10.50')
  })
})

describe('the billing switch', () => {
  test('reads yearly or lifetime from the URL and falls back to yearly', () => {
    expect(parseBillingKind('lifetime')).toBe('lifetime')
    expect(parseBillingKind('yearly')).toBe('yearly')
    expect(parseBillingKind(null)).toBe('yearly')
    expect(parseBillingKind('monthly')).toBe('yearly')
    expect(parseBillingKind('LIFETIME')).toBe('yearly')
  })
})

describe('checkout links', () => {
  const none: CheckoutUrls = { tiers: { 1: {}, 2: {}, 3: {} } }

  test('the tier’s own link for that kind comes first', () => {
    const urls: CheckoutUrls = {
      public: 'https://pay.example/any',
      yearly: 'https://pay.example/yearly',
      lifetime: 'https://pay.example/lifetime',
      tiers: { 1: {}, 2: { lifetime: 'https://pay.example/t2-lifetime' }, 3: {} },
    }
    expect(checkoutUrlFor(urls, 2, 'lifetime')).toBe('https://pay.example/t2-lifetime')
  })

  test('then the kind’s generic link, never the other kind’s', () => {
    const urls: CheckoutUrls = {
      public: 'https://pay.example/any',
      yearly: 'https://pay.example/yearly',
      tiers: { 1: {}, 2: { lifetime: 'https://pay.example/t2-lifetime' }, 3: {} },
    }
    expect(checkoutUrlFor(urls, 2, 'yearly')).toBe('https://pay.example/yearly')
    expect(checkoutUrlFor(urls, 1, 'lifetime')).toBe('https://pay.example/any')
  })

  test('then the generic public link', () => {
    expect(checkoutUrlFor({ ...none, public: 'https://pay.example/any' }, 3, 'yearly')).toBe(
      'https://pay.example/any',
    )
  })

  test('nothing configured means no link', () => {
    expect(checkoutUrlFor(none, 1, 'yearly')).toBeNull()
    expect(resolveCheckoutUrls(none)).toEqual({
      1: { yearly: null, lifetime: null },
      2: { yearly: null, lifetime: null },
      3: { yearly: null, lifetime: null },
    })
  })

  test('resolves all six options at once, each by the same order', () => {
    const urls: CheckoutUrls = {
      lifetime: 'https://pay.example/lifetime',
      tiers: { 1: {}, 2: {}, 3: { yearly: 'https://pay.example/t3-yearly' } },
    }
    expect(resolveCheckoutUrls(urls)).toEqual({
      1: { yearly: null, lifetime: 'https://pay.example/lifetime' },
      2: { yearly: null, lifetime: 'https://pay.example/lifetime' },
      3: { yearly: 'https://pay.example/t3-yearly', lifetime: 'https://pay.example/lifetime' },
    })
  })
})

describe('what each plan gives', () => {
  test('each tier lists the people its owner’s team workspaces hold, from the entitlements; the free plan’s line too', () => {
    expect(
      PLANS.map((plan) => plan.features.filter((feature) => feature.includes('team workspace'))),
    ).toEqual([
      ['Up to 10 people in each team workspace'],
      ['Up to 50 people in each team workspace'],
      ['Unlimited people in each team workspace'],
    ])
    expect(FREE_WORKSPACE_FEATURE).toBe('Up to 3 people in each team workspace')
  })

  test('plans are named as the cards name them', () => {
    expect((['free', 'tier1', 'tier2', 'tier3'] as const).map(planName)).toEqual([
      'Free',
      'Solo',
      'Team',
      'Agency',
    ])
  })
})
