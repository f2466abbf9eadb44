import { and, eq, inArray, like, max } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import {
  accounts,
  checkouts,
  emailOutbox,
  jobs,
  purchases,
  repositoryInvitations,
  subscriptions,
  users,
  webhookEvents,
} from '~/db/schema'
import { resetEnvForTests } from '~/env.server'
import { action as checkoutAction } from '~/routes/payment/checkout'
import {
  reconcileStripeEvents,
  startStripeReconciliation,
  stopStripeReconciliation,
} from '~/services/payments/reconciliation.server'
import { stripeClient } from '~/services/payments/stripe.server'
import { STRIPE_EVENT_TYPES } from '~/services/payments/webhook.server'
import { type GitHubStandIn, startGitHubStandIn } from '../fixtures/github-api'
import {
  newId,
  paidSessionObject,
  type StripeStandIn,
  startStripeStandIn,
  stripeEvent,
} from '../fixtures/stripe-api'
import { callThroughMiddleware, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { freePort } from '../helpers/free-port'
import type { TestServer } from '../helpers/http-server'
import { serveStripeWebhook } from '../helpers/stripe-webhook'

/**
 * The reconciliation job against the Stripe stand-in: a purchase whose rows are lost after Stripe
 * was told it was recorded comes back from Stripe's event list through the webhook's own path,
 * and running the job again changes nothing.
 */

const db = database()
let stripe: StripeStandIn
let github: GitHubStandIn
let app: TestServer
let appEnv: Record<string, string>

beforeAll(async () => {
  ;[stripe, github] = await Promise.all([startStripeStandIn(), startGitHubStandIn()])
  app = await serveStripeWebhook(stripe)
  appEnv = {
    ...stripe.appEnv([
      [2, 'yearly'],
      [2, 'lifetime'],
    ]),
    ...github.appEnv,
  }
})

afterAll(async () => {
  await stopStripeReconciliation()
  await Promise.all([stripe.close(), github.close(), app.close()])
  for (const name of Object.keys(appEnv)) delete process.env[name]
  resetEnvForTests()
})

beforeEach(() => {
  Object.assign(process.env, appEnv)
  resetEnvForTests()
})

const LOOK_BACK_S = 3 * 24 * 60 * 60 + 60 * 60

const reconcile = () => reconcileStripeEvents(db, stripeClient() ?? expect.fail('Stripe is configured'))

/** A signed-in buyer with a linked GitHub account pays on the stand-in's page; its webhooks arrive. */
async function buyThroughWebhooks(kind: 'yearly' | 'lifetime') {
  const buyer = await createUser(db)
  await db.insert(accounts).values({ userId: buyer.id, provider: 'github', providerAccountId: newId('gh') })
  const browser = await signedInBrowser(db, buyer.id)
  const start = await callThroughMiddleware(checkoutAction, {
    url: '/payment/checkout',
    headers: browser.headers(),
    form: browser.form({ tier: '2', plan: kind }),
  })
  const sent = stripe.events.length
  const paid = await fetch(start.location ?? '', {
    method: 'POST',
    body: new URLSearchParams({ email: buyer.email, name: 'Ada Buyer' }),
    redirect: 'manual',
  })
  expect(paid.status).toBe(303)
  const sessionId = new URL(paid.headers.get('Location') ?? '').searchParams.get('session_id') ?? ''
  return { buyer, sessionId, eventIds: stripe.events.slice(sent).map((event) => event.id) }
}

/** Everything a purchase's webhooks left: the records, the access they give, what they queued. */
async function stateOf(userId: string, email: string, sessionId: string, eventIds: string[]) {
  const [user] = await db
    .select({
      plan: users.plan,
      planKind: users.planKind,
      accessUntil: users.accessUntil,
      stripeCustomerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, userId))
  const bought = await db.select().from(purchases).where(eq(purchases.userId, userId))
  return {
    user,
    purchases: bought.map(({ id: _, ...purchase }) => purchase),
    subscriptions: await db
      .select()
      .from(subscriptions)
      .where(
        inArray(
          subscriptions.id,
          bought.flatMap((purchase) => purchase.stripeSubscriptionId ?? []),
        ),
      ),
    checkout: (
      await db.select({ status: checkouts.status }).from(checkouts).where(eq(checkouts.id, sessionId))
    )[0],
    recordedEvents: (
      await db.select({ id: webhookEvents.id }).from(webhookEvents).where(inArray(webhookEvents.id, eventIds))
    ).length,
    thankYouEmails: (
      await db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, 'Thank you%')))
    ).length,
    invitationJobs: (
      await db
        .select()
        .from(jobs)
        .where(eq(jobs.id, `repository-invitation:${userId}`))
    ).length,
    invitation: (
      await db
        .select({ status: repositoryInvitations.status })
        .from(repositoryInvitations)
        .where(eq(repositoryInvitations.userId, userId))
    )[0],
  }
}

/** What losing the webhooks' commits takes away (a power cut after Stripe got its 200s, say). */
async function loseCommits(userId: string, email: string, sessionId: string, eventIds: string[]) {
  const bought = await db.select().from(purchases).where(eq(purchases.userId, userId))
  await db.delete(webhookEvents).where(inArray(webhookEvents.id, eventIds))
  await db.delete(purchases).where(eq(purchases.userId, userId))
  await db.delete(subscriptions).where(
    inArray(
      subscriptions.id,
      bought.flatMap((purchase) => purchase.stripeSubscriptionId ?? []),
    ),
  )
  await db.update(checkouts).set({ status: 'open' }).where(eq(checkouts.id, sessionId))
  await db.delete(emailOutbox).where(eq(emailOutbox.to, email))
  await db.delete(jobs).where(eq(jobs.id, `repository-invitation:${userId}`))
  await db.delete(repositoryInvitations).where(eq(repositoryInvitations.userId, userId))
  await db
    .update(users)
    .set({ plan: 'free', planKind: null, accessUntil: null, stripeCustomerId: null })
    .where(eq(users.id, userId))
}

describe('a purchase recorded by webhook, then lost', () => {
  test.each(['yearly', 'lifetime'] as const)(
    '%s: the job brings it and its access back, once',
    async (kind) => {
      const { buyer, sessionId, eventIds } = await buyThroughWebhooks(kind)
      const recorded = await stateOf(buyer.id, buyer.email, sessionId, eventIds)
      expect(recorded).toMatchObject({
        user: { plan: 'tier2', planKind: kind },
        purchases: [{ tier: 'tier2', kind, stripeCheckoutSessionId: sessionId }],
        checkout: { status: 'paid' },
        recordedEvents: eventIds.length,
        thankYouEmails: 1,
        invitationJobs: 1,
        invitation: { status: 'pending' },
      })
      expect(recorded.subscriptions).toHaveLength(kind === 'yearly' ? 1 : 0)

      await loseCommits(buyer.id, buyer.email, sessionId, eventIds)
      expect(await stateOf(buyer.id, buyer.email, sessionId, eventIds)).toMatchObject({
        user: { plan: 'free' },
        purchases: [],
        checkout: { status: 'open' },
        thankYouEmails: 0,
      })

      expect((await reconcile()).recorded.sort()).toEqual([...eventIds].sort())
      expect(await stateOf(buyer.id, buyer.email, sessionId, eventIds)).toEqual(recorded)

      // Again, and again: everything is recorded, so nothing is applied twice.
      expect((await reconcile()).recorded).toEqual([])
      expect((await reconcile()).recorded).toEqual([])
      expect(await stateOf(buyer.id, buyer.email, sessionId, eventIds)).toEqual(recorded)
    },
  )
})

describe('events the webhook never delivered', () => {
  test('a purchase Stripe holds is recorded by the job: account, access, thank-you e-mail', async () => {
    const email = `never-delivered-${Date.now()}@example.test`
    const session = paidSessionObject({ tier: 2, kind: 'lifetime', email })
    const event = stripeEvent('checkout.session.completed', session)
    stripe.holdEvent(event)

    expect((await reconcile()).recorded).toEqual([event.id])
    const [buyer] = await db.select().from(users).where(eq(users.email, email))
    expect(buyer).toMatchObject({ plan: 'tier2', planKind: 'lifetime', stripeCustomerId: session.customer })
    expect(await db.select().from(purchases).where(eq(purchases.email, email))).toHaveLength(1)
    const subjects = async () =>
      (await db.select().from(emailOutbox).where(eq(emailOutbox.to, email)))
        .map((mail) => mail.subject)
        .sort()
    const mailed = await subjects()
    expect(mailed).toContain('Thank you for buying Threadwork Team')
    expect((await reconcile()).recorded).toEqual([])
    expect(await db.select().from(purchases).where(eq(purchases.email, email))).toHaveLength(1)
    expect(await subjects()).toEqual(mailed)
  })

  test('Stripe is asked for our event types since three days and an hour before the newest recorded, page by page', async () => {
    // More than a page of another integration's sessions: recorded and ignored, like the webhook does.
    const foreign = Array.from({ length: 120 }, () =>
      stripeEvent('checkout.session.completed', {
        id: newId('cs_test'),
        object: 'checkout.session',
        metadata: {},
      }),
    )
    for (const event of foreign) stripe.holdEvent(event)
    // Older than the look-back: the webhook had three days to deliver it, so it is not asked for.
    const old = stripeEvent(
      'checkout.session.completed',
      paidSessionObject({ tier: 2, kind: 'lifetime', email: `too-old-${Date.now()}@example.test` }),
      Math.floor(Date.now() / 1000) - 5 * 24 * 60 * 60,
    )
    stripe.holdEvent(old)

    const [latest] = await db.select({ at: max(webhookEvents.receivedAt) }).from(webhookEvents)
    const newest = latest?.at ?? expect.fail('an earlier test recorded events')
    const before = stripe.requests.length
    const { recorded } = await reconcile()
    expect(recorded.sort()).toEqual(foreign.map((event) => event.id).sort())
    const listings = stripe.requests.slice(before).filter((request) => request.path === '/v1/events')
    expect(listings).toHaveLength(2)
    const [first, second] = listings.map((request) => Object.fromEntries(request.query))
    expect(first?.['created[gt]']).toBe(String(Math.floor(newest.getTime() / 1000) - LOOK_BACK_S))
    expect(Object.entries(first ?? {}).filter(([key]) => key.startsWith('types['))).toHaveLength(
      STRIPE_EVENT_TYPES.length,
    )
    expect(second?.starting_after).toBeDefined()
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.id, old.id))).toEqual([])
  })
})

describe('Stripe out of reach', () => {
  test('the pass fails, is logged, and the next one (sooner than hourly) records what was missing', async () => {
    process.env.STRIPE_API_URL = `http://127.0.0.1:${await freePort()}`
    resetEnvForTests()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const email = `unreachable-${Date.now()}@example.test`
    const event = stripeEvent(
      'checkout.session.completed',
      paidSessionObject({ tier: 2, kind: 'lifetime', email }),
    )
    stripe.holdEvent(event)
    try {
      startStripeReconciliation({ retryIntervalMs: 100 })
      await vi.waitFor(() =>
        expect(errors).toHaveBeenCalledWith('Stripe reconciliation failed:', expect.any(String)),
      )
      expect(await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id))).toEqual([])

      process.env.STRIPE_API_URL = stripe.origin
      resetEnvForTests()
      // The pass logs what it recorded once it has gone through every page.
      await vi.waitFor(() => expect(warnings).toHaveBeenCalledWith(expect.stringContaining(event.id)), {
        timeout: 5_000,
      })
      expect(await db.select().from(purchases).where(eq(purchases.email, email))).toHaveLength(1)
    } finally {
      await stopStripeReconciliation()
      errors.mockRestore()
      warnings.mockRestore()
    }
  })

  test('without STRIPE_SECRET_KEY nothing starts', async () => {
    delete process.env.STRIPE_SECRET_KEY
    resetEnvForTests()
    const before = stripe.requests.length
    startStripeReconciliation({ retryIntervalMs: 100 })
    await new Promise((resolve) => setTimeout(resolve, 300))
    await stopStripeReconciliation()
    expect(stripe.requests.length).toBe(before)
  })
})
