import { fc, test as fcTest } from '@fast-check/vitest'
import { eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { accounts, emailOutbox, purchases, sessions, subscriptions, users, webhookEvents } from '~/db/schema'
import { activePlan } from '~/domain/entitlements'
import {
  chargeRefundedObject,
  eventsForPayment,
  invoiceObject,
  newId,
  paidSessionObject,
  stripeEvent,
  subscriptionObject,
} from '../../../tests/fixtures/stripe-api'
import { createUser } from '../../../tests/helpers/factories'
import { createSession } from '../sessions.server'
import { handleStripeEvent } from './webhook.server'

const db = database()
const DAY = 24 * 60 * 60
const YEAR = 365 * DAY
const T0 = Math.floor(Date.UTC(2026, 0, 1) / 1000)

const send = (event: object) => handleStripeEvent(db, event as Stripe.Event)
const at = (seconds: number) => new Date(seconds * 1000)

async function userByEmail(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email))
  return user
}
const purchasesOf = (email: string) => db.select().from(purchases).where(eq(purchases.email, email))
const emailsTo = (to: string) => db.select().from(emailOutbox).where(eq(emailOutbox.to, to))

let n = 0
const freshEmail = () => `buyer${++n}-${Date.now()}@example.test`

beforeEach(() => {
  n += 1
})

describe('a paid order', () => {
  test('a lifetime purchase: recorded in cents, lifetime access, thank-you e-mail', async () => {
    const buyer = await createUser(db)
    const session = paidSessionObject({ tier: 2, kind: 'lifetime', email: buyer.email, userId: buyer.id })
    expect(await send(stripeEvent('checkout.session.completed', session, T0))).toBe('applied')

    const [purchase] = await purchasesOf(buyer.email)
    expect(purchase).toMatchObject({
      userId: buyer.id,
      tier: 'tier2',
      kind: 'lifetime',
      amountCents: 31_200,
      currency: 'USD',
      stripeCheckoutSessionId: session.id,
      stripePaymentIntentId: session.payment_intent,
      refundedAt: null,
    })
    expect(await userByEmail(buyer.email)).toMatchObject({
      plan: 'tier2',
      planKind: 'lifetime',
      accessUntil: null,
      stripeCustomerId: session.customer,
    })
    const mail = await emailsTo(buyer.email)
    expect(mail.map((m) => m.subject)).toEqual(['Thank you for buying Threadwork Team'])
    expect(mail[0]?.text).toContain('You bought Threadwork Team (lifetime) for $312.00.')
  })

  test('a yearly purchase: access to the end of the paid period', async () => {
    const buyer = await createUser(db)
    const session = paidSessionObject({ tier: 1, kind: 'yearly', email: buyer.email, userId: buyer.id })
    for (const event of eventsForPayment(session, T0)) await send(event)
    expect(await userByEmail(buyer.email)).toMatchObject({
      plan: 'tier1',
      planKind: 'yearly',
      accessUntil: at(T0 + YEAR),
    })
  })

  test('an unpaid completed checkout waits; the async success fulfils it', async () => {
    const email = freshEmail()
    const session = paidSessionObject({ tier: 3, kind: 'lifetime', email, paymentStatus: 'unpaid' })
    expect(await send(stripeEvent('checkout.session.completed', session, T0))).toBe('ignored')
    expect(await purchasesOf(email)).toHaveLength(0)
    await send(
      stripeEvent(
        'checkout.session.async_payment_succeeded',
        { ...session, payment_status: 'paid' },
        T0 + 60,
      ),
    )
    expect(await purchasesOf(email)).toHaveLength(1)
    expect((await userByEmail(email))?.plan).toBe('tier3')
  })

  test('a replayed event gives one purchase and one e-mail', async () => {
    const email = freshEmail()
    const event = stripeEvent(
      'checkout.session.completed',
      paidSessionObject({ tier: 1, kind: 'lifetime', email }),
      T0,
    )
    expect(await send(event)).toBe('applied')
    expect(await send(event)).toBe('duplicate')
    expect(await send(event)).toBe('duplicate')
    expect(await purchasesOf(email)).toHaveLength(1)
    expect((await emailsTo(email)).filter((m) => m.subject.startsWith('Thank you'))).toHaveLength(1)
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id))).toHaveLength(1)
  })

  test('two concurrent deliveries of one event give one purchase', async () => {
    const email = freshEmail()
    const event = stripeEvent(
      'checkout.session.completed',
      paidSessionObject({ tier: 2, kind: 'yearly', email }),
      T0,
    )
    const outcomes = await Promise.all([send(event), send(event), send(event)])
    expect(outcomes.sort()).toEqual(['applied', 'duplicate', 'duplicate'])
    expect(await purchasesOf(email)).toHaveLength(1)
  })

  test('the same session in two events (completed, then async success) is fulfilled once', async () => {
    const email = freshEmail()
    const session = paidSessionObject({ tier: 2, kind: 'lifetime', email })
    await send(stripeEvent('checkout.session.completed', session, T0))
    expect(await send(stripeEvent('checkout.session.async_payment_succeeded', session, T0 + 1))).toBe(
      'ignored',
    )
    expect(await purchasesOf(email)).toHaveLength(1)
  })
})

describe('who the purchase belongs to', () => {
  test('the person signed in at checkout, whatever address paid', async () => {
    const buyer = await createUser(db)
    await send(
      stripeEvent(
        'checkout.session.completed',
        paidSessionObject({ tier: 1, kind: 'lifetime', email: freshEmail(), userId: buyer.id }),
      ),
    )
    expect((await userByEmail(buyer.email))?.plan).toBe('tier1')
  })

  test('else the account whose verified address paid, with no password e-mail', async () => {
    const owner = await createUser(db)
    await send(
      stripeEvent(
        'checkout.session.completed',
        paidSessionObject({ tier: 3, kind: 'lifetime', email: owner.email.toUpperCase() }),
      ),
    )
    expect((await userByEmail(owner.email))?.plan).toBe('tier3')
    expect((await emailsTo(owner.email)).map((m) => m.subject)).toEqual([
      'Thank you for buying Threadwork Agency',
    ])
  })

  test('else a new account, with a link to set a password', async () => {
    const email = freshEmail()
    await send(
      stripeEvent(
        'checkout.session.completed',
        paidSessionObject({ tier: 1, kind: 'yearly', email, name: 'New Buyer' }),
      ),
    )
    const user = await userByEmail(email)
    expect(user).toMatchObject({
      name: 'New Buyer',
      emailVerifiedAt: null,
      passwordHash: null,
      plan: 'tier1',
    })
    const subjects = (await emailsTo(email)).map((m) => m.subject)
    expect(subjects).toContain('Set your Threadwork password')
    expect(subjects).toContain('Thank you for buying Threadwork Solo')
  })

  test('an account registered with the address but never verified is not handed the purchase as it is', async () => {
    const squatter = await createUser(db, { emailVerifiedAt: null })
    await db
      .insert(accounts)
      .values({ userId: squatter.id, provider: 'github', providerAccountId: String(Date.now()) })
    await createSession(db, squatter.id)
    await send(
      stripeEvent(
        'checkout.session.completed',
        paidSessionObject({ tier: 2, kind: 'lifetime', email: squatter.email }),
      ),
    )

    const user = await userByEmail(squatter.email)
    // The purchase is the address's: whoever set the password or linked a sign-in is locked out
    // until the address's owner sets a password from the e-mailed link.
    expect(user).toMatchObject({ id: squatter.id, passwordHash: null, plan: 'tier2' })
    expect(await db.select().from(sessions).where(eq(sessions.userId, squatter.id))).toHaveLength(0)
    expect(await db.select().from(accounts).where(eq(accounts.userId, squatter.id))).toHaveLength(0)
    expect((await emailsTo(squatter.email)).map((m) => m.subject)).toContain('Set your Threadwork password')
  })
})

/** A yearly plan bought at T0, with the events Stripe sends for it. */
async function boughtYearly(tier: 1 | 2 | 3) {
  const email = freshEmail()
  const session = paidSessionObject({ tier, kind: 'yearly', email })
  for (const event of eventsForPayment(session, T0)) await send(event)
  return { email, sub: session.subscription as string, customer: session.customer as string }
}

describe('refunds and the end of a subscription', () => {
  test('a full refund revokes lifetime access; a partial one does not', async () => {
    const email = freshEmail()
    const session = paidSessionObject({ tier: 2, kind: 'lifetime', email })
    await send(stripeEvent('checkout.session.completed', session, T0))
    await send(
      stripeEvent(
        'charge.refunded',
        { ...chargeRefundedObject(session.payment_intent as string), refunded: false },
        T0 + 5,
      ),
    )
    expect((await userByEmail(email))?.plan).toBe('tier2')
    await send(
      stripeEvent('charge.refunded', chargeRefundedObject(session.payment_intent as string), T0 + 10),
    )
    expect(await userByEmail(email)).toMatchObject({ plan: 'free', planKind: null, accessUntil: null })
    expect((await purchasesOf(email))[0]?.refundedAt).toEqual(at(T0 + 10))
  })

  test('a refund that arrives before its purchase still takes effect', async () => {
    const email = freshEmail()
    const session = paidSessionObject({ tier: 3, kind: 'lifetime', email })
    await send(
      stripeEvent('charge.refunded', chargeRefundedObject(session.payment_intent as string), T0 + 10),
    )
    await send(stripeEvent('checkout.session.completed', session, T0))
    expect((await userByEmail(email))?.plan).toBe('free')
  })

  test('cancelled at period end: access to the end, no renewal; then the subscription ends', async () => {
    const { email, sub, customer } = await boughtYearly(2)

    await send(
      stripeEvent(
        'customer.subscription.updated',
        subscriptionObject(sub, customer, { periodEnd: T0 + YEAR, cancelAtPeriodEnd: true }),
        T0 + DAY,
      ),
    )
    const [state] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub))
    expect(state).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' })
    const user = await userByEmail(email)
    expect(user).toMatchObject({ plan: 'tier2', accessUntil: at(T0 + YEAR) })
    expect(activePlan(user as NonNullable<typeof user>, at(T0 + YEAR - DAY))).toBe('tier2')

    await send(
      stripeEvent(
        'customer.subscription.deleted',
        subscriptionObject(sub, customer, { status: 'canceled', periodEnd: T0 + YEAR, endedAt: T0 + YEAR }),
        T0 + YEAR,
      ),
    )
    const ended = await userByEmail(email)
    expect(ended).toMatchObject({ accessUntil: at(T0 + YEAR) })
    expect(activePlan(ended as NonNullable<typeof ended>, at(T0 + YEAR + 1))).toBe('free')
  })

  test('a renewal extends access; a failed renewal payment is noted', async () => {
    const { email, sub, customer } = await boughtYearly(1)
    await send(stripeEvent('invoice.payment_failed', invoiceObject(sub, customer, T0 + 2 * YEAR), T0 + YEAR))
    const [failed] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub))
    expect(failed?.lastPaymentFailedAt).toEqual(at(T0 + YEAR))
    await send(stripeEvent('invoice.paid', invoiceObject(sub, customer, T0 + 2 * YEAR), T0 + YEAR + DAY))
    expect((await userByEmail(email))?.accessUntil).toEqual(at(T0 + 2 * YEAR))
  })

  test('an older subscription event than the last applied changes nothing', async () => {
    const { email, sub, customer } = await boughtYearly(1)
    await send(
      stripeEvent(
        'customer.subscription.deleted',
        subscriptionObject(sub, customer, {
          status: 'canceled',
          periodEnd: T0 + YEAR,
          endedAt: T0 + 30 * DAY,
        }),
        T0 + 30 * DAY,
      ),
    )
    await send(
      stripeEvent(
        'customer.subscription.updated',
        subscriptionObject(sub, customer, { periodEnd: T0 + YEAR }),
        T0 + 10 * DAY,
      ),
    )
    const [state] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub))
    expect(state?.status).toBe('canceled')
    expect((await userByEmail(email))?.accessUntil).toEqual(at(T0 + 30 * DAY))
  })
})

/**
 * One buyer's whole history with Stripe: a yearly plan bought, renewed twice, then cancelled at
 * period end and ended, plus a lifetime licence bought and refunded. Fresh ids every time, so each
 * run has a database state of its own; the same timeline every time.
 */
function history() {
  const email = freshEmail()
  const yearly = paidSessionObject({ tier: 2, kind: 'yearly', email, subscription: newId('sub') })
  const lifetime = paidSessionObject({
    tier: 3,
    kind: 'lifetime',
    email,
    customer: yearly.customer as string,
  })
  const sub = yearly.subscription as string
  const customer = yearly.customer as string
  const state = (periodEnd: number, extra: Parameters<typeof subscriptionObject>[2] = { periodEnd }) =>
    subscriptionObject(sub, customer, { ...extra, periodEnd })
  const events = [
    stripeEvent('customer.subscription.created', state(T0 + YEAR), T0),
    stripeEvent('invoice.paid', invoiceObject(sub, customer, T0 + YEAR), T0 + 1),
    stripeEvent('checkout.session.completed', yearly, T0 + 2),
    stripeEvent('invoice.paid', invoiceObject(sub, customer, T0 + 2 * YEAR), T0 + YEAR),
    stripeEvent('customer.subscription.updated', state(T0 + 2 * YEAR), T0 + YEAR + 1),
    stripeEvent('invoice.paid', invoiceObject(sub, customer, T0 + 3 * YEAR), T0 + 2 * YEAR),
    stripeEvent('customer.subscription.updated', state(T0 + 3 * YEAR), T0 + 2 * YEAR + 1),
    stripeEvent(
      'customer.subscription.updated',
      state(T0 + 3 * YEAR, { periodEnd: 0, cancelAtPeriodEnd: true }),
      T0 + 2 * YEAR + DAY,
    ),
    stripeEvent(
      'customer.subscription.deleted',
      state(T0 + 3 * YEAR, { periodEnd: 0, status: 'canceled', endedAt: T0 + 3 * YEAR }),
      T0 + 3 * YEAR,
    ),
    stripeEvent('checkout.session.completed', lifetime, T0 + 10),
    stripeEvent('charge.refunded', chargeRefundedObject(lifetime.payment_intent as string), T0 + 20),
  ]
  return { email, events }
}

async function finalState(email: string) {
  const user = await userByEmail(email)
  const bought = await purchasesOf(email)
  const [state] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, bought.find((p) => p.kind === 'yearly')?.stripeSubscriptionId ?? ''))
  return {
    plan: user?.plan,
    planKind: user?.planKind,
    accessUntil: user?.accessUntil,
    purchases: bought
      .map((p) => `${p.tier} ${p.kind} ${p.amountCents} ${p.refundedAt ? 'refunded' : 'paid'}`)
      .sort(),
    subscription: state && {
      status: state.status,
      currentPeriodEnd: state.currentPeriodEnd,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      endedAt: state.endedAt,
      paidThrough: state.paidThrough,
    },
    thankYous: (await emailsTo(email)).filter((m) => m.subject.startsWith('Thank you')).length,
  }
}

/** Where that history ends: the yearly plan over, the lifetime licence refunded. */
const HISTORY_END = {
  plan: 'tier2',
  planKind: 'yearly',
  accessUntil: at(T0 + 3 * YEAR),
  purchases: ['tier2 yearly 20000 paid', 'tier3 lifetime 55500 refunded'],
  subscription: {
    status: 'canceled',
    currentPeriodEnd: at(T0 + 3 * YEAR),
    cancelAtPeriodEnd: false,
    endedAt: at(T0 + 3 * YEAR),
    paidThrough: at(T0 + 3 * YEAR),
  },
  thankYous: 2,
}

describe('events in any order, any number of times', () => {
  test('in order, the history ends with the yearly plan over and the lifetime licence refunded', async () => {
    const { email, events } = history()
    for (const event of events) await send(event)
    expect(await finalState(email)).toEqual(HISTORY_END)
  })

  fcTest.prop(
    [
      fc.infiniteStream(fc.nat()).map((stream) => stream),
      fc.array(fc.nat({ max: 10 }), { maxLength: 8 }),
      fc.boolean(),
    ],
    { numRuns: 15 },
  )(
    'shuffled and duplicated, deliveries reach the same final state',
    async (randoms, duplicates, isConcurrent) => {
      const run = history()
      const deliveries = [
        ...run.events,
        ...duplicates.map((index) => run.events[index % run.events.length] as object),
      ]
      const order = deliveries
        .map((event) => ({ event, key: randoms.next().value as number }))
        .sort((a, b) => a.key - b.key)
        .map(({ event }) => event)
      if (isConcurrent) await Promise.all(order.map(send))
      else for (const event of order) await send(event)

      expect(await finalState(run.email)).toEqual(HISTORY_END)
    },
    // Fifteen histories of up to nineteen deliveries each, on two busy cores.
    60_000,
  )
})
