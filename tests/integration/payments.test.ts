import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { accounts, emailOutbox, jobs, purchases, repositoryInvitations, users } from '~/db/schema'
import { smtpTransport } from '~/email/transport.server'
import { createOutboxWorker } from '~/email/worker.server'
import { resetEnvForTests } from '~/env.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { action as checkoutAction, loader as checkoutLoader } from '~/routes/payment/checkout'
import { loader as successLoader } from '~/routes/payment/success'
import { action as billingAction, loader as billingLoader } from '~/routes/settings/billing'
import { loader as receiptLoader } from '~/routes/settings/receipt'
import { contentSecurityPolicy } from '~/security.server'
import { jobHandlers } from '~/services/job-handlers.server'
import { type GitHubStandIn, startGitHubStandIn } from '../fixtures/github-api'
import { type SmtpFixture, startSmtpServer } from '../fixtures/smtp-server'
import {
  eventsForPayment,
  paidSessionObject,
  STRIPE_TEST_WEBHOOK_SECRET,
  type StripeStandIn,
  signEvent,
  startStripeStandIn,
  stripeEvent,
  stripeTestPrice,
  subscriptionObject,
} from '../fixtures/stripe-api'
import { anonymousBrowser, callThroughMiddleware, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import type { TestServer } from '../helpers/http-server'
import { serveStripeWebhook } from '../helpers/stripe-webhook'

/**
 * Payments end to end without the internet: checkout against the Stripe stand-in, its hosted page
 * "paying" and posting signed webhooks to the app over real HTTP, the thank-you e-mail reaching
 * the test SMTP server, and the repository invitation reaching the GitHub stand-in, retried.
 */

const db = database()
let stripe: StripeStandIn
let github: GitHubStandIn
let smtp: SmtpFixture
let app: TestServer
let appEnv: Record<string, string>

beforeAll(async () => {
  ;[stripe, github, smtp] = await Promise.all([startStripeStandIn(), startGitHubStandIn(), startSmtpServer()])
  app = await serveStripeWebhook(stripe)
  appEnv = {
    ...stripe.appEnv([
      [1, 'yearly'],
      [1, 'lifetime'],
      [2, 'yearly'],
      [2, 'lifetime'],
      [3, 'yearly'],
      [3, 'lifetime'],
    ]),
    ...github.appEnv,
  }
})

afterAll(async () => {
  await Promise.all([stripe.close(), github.close(), smtp.close(), app.close()])
  for (const name of Object.keys(appEnv)) delete process.env[name]
  resetEnvForTests()
})

beforeEach(() => {
  Object.assign(process.env, appEnv)
  resetEnvForTests()
})

const lastCreate = () => stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)

async function startAsVisitor(tier: string, plan: string, browser = anonymousBrowser()) {
  return callThroughMiddleware(checkoutAction, {
    url: '/payment/checkout',
    headers: browser.headers(),
    form: browser.form({ tier, plan }),
  })
}

/** The buyer on the stand-in's hosted page presses Pay: the webhooks arrive before the redirect. */
async function pay(location: string, email: string) {
  const response = await fetch(location, {
    method: 'POST',
    body: new URLSearchParams({ email, name: 'Ada Buyer' }),
    redirect: 'manual',
  })
  expect(response.status).toBe(303)
  return new URL(response.headers.get('Location') ?? '')
}

describe('starting checkout', () => {
  test('lifetime: a payment-mode session that creates a customer, with the success URL and a key', async () => {
    const answer = await startAsVisitor('2', 'lifetime')
    expect(answer.status).toBe(303)
    expect(answer.location).toMatch(new RegExp(`^${stripe.origin}/pay/cs_test_`))
    const request = lastCreate()
    expect(Object.fromEntries(request?.form ?? [])).toMatchObject({
      mode: 'payment',
      customer_creation: 'always',
      'line_items[0][price]': 'price_test_tier2_lifetime',
      'line_items[0][quantity]': '1',
      'metadata[tier]': 'tier2',
      'metadata[kind]': 'lifetime',
      success_url: 'http://localhost:3000/payment/success?session_id={CHECKOUT_SESSION_ID}',
    })
    expect(request?.headers['idempotency-key']).toMatch(/^checkout-[0-9a-f]{64}$/)
  })

  test('yearly, signed in: a subscription session carrying the person’s id and e-mail', async () => {
    const user = await createUser(db)
    const browser = await signedInBrowser(db, user.id)
    const answer = await startAsVisitor('3', 'yearly', browser)
    expect(answer.status).toBe(303)
    const form = Object.fromEntries(lastCreate()?.form ?? [])
    expect(form).toMatchObject({
      mode: 'subscription',
      client_reference_id: user.id,
      customer_email: user.email,
    })
    expect(form).not.toHaveProperty('customer_creation')
  })

  test('a second submit of the same form reuses the session (same idempotency key)', async () => {
    const browser = anonymousBrowser()
    const first = await startAsVisitor('1', 'yearly', browser)
    const second = await startAsVisitor('1', 'yearly', browser)
    expect(second.location).toBe(first.location)
    const keys = stripe.requests.slice(-2).map((r) => r.headers['idempotency-key'])
    expect(keys[0]).toBe(keys[1])
    // Another visitor gets a session of their own.
    expect((await startAsVisitor('1', 'yearly')).location).not.toBe(first.location)
  })

  test('a shareable GET link works the same way', async () => {
    const answer = await callThroughMiddleware(
      checkoutLoader,
      { url: '/payment/checkout?tier=1&plan=lifetime' },
      'GET',
    )
    expect(answer.status).toBe(303)
    expect(lastCreate()?.form.get('mode')).toBe('payment')
  })

  test.each([
    ['/payment/checkout?tier=9&plan=yearly', 'Choose a tier from 1 to 3.'],
    ['/payment/checkout?tier=1&plan=monthly', 'Choose yearly or lifetime.'],
    ['/payment/checkout', 'Choose a tier from 1 to 3.'],
  ])('%s: 400 saying what is wrong, nothing sent to Stripe', async (url, message) => {
    const before = stripe.requests.length
    const answer = await callThroughMiddleware(checkoutLoader, { url }, 'GET')
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain(message)
    expect(stripe.requests.length).toBe(before)
  })

  test('without Stripe: the configured link, else a page saying checkout is not configured', async () => {
    delete process.env.STRIPE_SECRET_KEY
    process.env.CHECKOUT_URL_LIFETIME = 'https://pay.example.test/lifetime'
    resetEnvForTests()
    const linked = await callThroughMiddleware(
      checkoutLoader,
      { url: '/payment/checkout?tier=2&plan=lifetime' },
      'GET',
    )
    expect(linked.location).toBe('https://pay.example.test/lifetime')
    const none = await callThroughMiddleware(
      checkoutLoader,
      { url: '/payment/checkout?tier=2&plan=yearly' },
      'GET',
    )
    expect(none.status).toBe(404)
    expect(JSON.stringify(none.body)).toContain('Checkout is not configured')
    delete process.env.CHECKOUT_URL_LIFETIME
  })

  test('Stripe refusing the request: 502 with a page saying nothing was charged', async () => {
    process.env.STRIPE_PRICE_TIER_1_YEARLY = 'price_that_stripe_does_not_know'
    resetEnvForTests()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const answer = await startAsVisitor('1', 'yearly')
    errors.mockRestore()
    expect(answer.status).toBe(502)
    expect(JSON.stringify(answer.body)).toContain('Checkout could not start')
  })

  test('the CSP lets the buy form’s redirect reach Stripe’s hosted page', () => {
    expect(contentSecurityPolicy('n')).toContain(`form-action 'self' ${stripe.origin}`)
  })
})

describe('the webhook endpoint', () => {
  async function post(body: string, signature: string | null) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    if (signature) headers['Stripe-Signature'] = signature
    return fetch(`${app.origin}/api/stripe/webhook`, { method: 'POST', headers, body })
  }

  test('a tampered body, an old signature, another secret or none at all: 400, nothing recorded', async () => {
    const email = 'tamper@example.test'
    const event = stripeEvent(
      'checkout.session.completed',
      paidSessionObject({ tier: 1, kind: 'lifetime', email }),
    )
    const { payload, header } = signEvent(event)
    const tampered = payload.replace('"amount_total":23700', '"amount_total":1')
    expect((await post(tampered, header)).status).toBe(400)
    const old = signEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 60 * 60 })
    expect((await post(old.payload, old.header)).status).toBe(400)
    const foreign = signEvent(event, { secret: `${STRIPE_TEST_WEBHOOK_SECRET}-other` })
    expect((await post(foreign.payload, foreign.header)).status).toBe(400)
    const unsigned = await post(payload, null)
    expect(unsigned.status).toBe(400)
    expect(await unsigned.json()).toMatchObject({ code: 'BAD_REQUEST' })
    expect(await db.select().from(purchases).where(eq(purchases.email, email))).toHaveLength(0)

    const good = await post(payload, header)
    expect(good.status).toBe(200)
    expect(await good.json()).toEqual({ received: true, outcome: 'applied' })
    const replay = await post(payload, header)
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' })
    expect(await db.select().from(purchases).where(eq(purchases.email, email))).toHaveLength(1)
  })
})

describe('a purchase from the pricing page to the repository', () => {
  test('pay on the hosted page → webhooks → paid page, thank-you e-mail, invitation (retried), billing', async () => {
    const buyer = await createUser(db, { email: 'octo-buyer@example.test' })
    await db.insert(accounts).values({ userId: buyer.id, provider: 'github', providerAccountId: '4242' })
    github.users.set('octo-buyer', '4242')
    const browser = await signedInBrowser(db, buyer.id)

    const start = await startAsVisitor('2', 'yearly', browser)
    const successUrl = await pay(start.location ?? '', buyer.email)
    expect(successUrl.pathname).toBe('/payment/success')

    const success = await callThroughMiddleware(
      successLoader,
      { url: successUrl.pathname + successUrl.search, headers: browser.headers() },
      'GET',
    )
    expect(success.body).toMatchObject({
      status: 'paid',
      planName: 'Team',
      planLabel: 'Yearly',
      isBuyer: true,
    })
    expect((await db.select().from(users).where(eq(users.id, buyer.id)))[0]).toMatchObject({
      plan: 'tier2',
      planKind: 'yearly',
    })

    // The thank-you e-mail, through the outbox, to the SMTP server.
    await createOutboxWorker({
      transport: smtpTransport(smtp.url, 'Threadwork <no-reply@threadwork.test>'),
    }).deliverDue()
    const thanks = await smtp.waitForEmail(
      (m) => m.to === buyer.email && m.subject === 'Thank you for buying Threadwork Team',
    )
    expect(thanks.text).toContain('You bought Threadwork Team (yearly) for $200.00.')

    // GitHub fails the first try: the job is retried later and the buyer sees it is pending.
    github.failNext(1)
    let clock = Date.now()
    const runner = createJobRunner({ handlers: jobHandlers, now: () => clock, logError: () => {} })
    expect(await runner.runDue()).toBe(0)
    const [job] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.id, `repository-invitation:${buyer.id}`))
    expect(job).toMatchObject({ status: 'pending', attempts: 1 })
    expect(job?.lastError).toContain('502')
    const [waiting] = await db
      .select()
      .from(repositoryInvitations)
      .where(eq(repositoryInvitations.userId, buyer.id))
    expect(waiting?.status).toBe('pending')
    clock += 61_000
    expect(await runner.runDue()).toBe(1)
    expect(github.invitations).toContainEqual({
      repo: 'threadwork/threadwork-pro',
      login: 'octo-buyer',
      authorization: 'Bearer ghp_threadwork_stand_in',
    })

    const billing = await callThroughMiddleware(
      billingLoader,
      { url: '/settings/billing', headers: browser.headers() },
      'GET',
    )
    expect(billing.body).toMatchObject({
      plan: 'tier2',
      planKind: 'yearly',
      renews: true,
      canOpenPortal: true,
      invitation: { status: 'sent', githubLogin: 'octo-buyer' },
      purchases: [{ tier: 'tier2', kind: 'yearly', amountCents: 20_000, currency: 'USD', refundedAt: null }],
    })

    const portal = await callThroughMiddleware(billingAction, {
      url: '/settings/billing',
      headers: browser.headers(),
      form: browser.form({ intent: 'portal' }),
    })
    expect(portal.status).toBe(303)
    expect(portal.location).toMatch(new RegExp(`^${stripe.origin}/portal/cus_`))
  })

  test('a visitor who is not signed in: an account is created, the invitation waits for a GitHub username', async () => {
    const email = 'new-buyer@example.test'
    const start = await startAsVisitor('3', 'lifetime')
    const successUrl = await pay(start.location ?? '', email)
    const success = await callThroughMiddleware(
      successLoader,
      { url: successUrl.pathname + successUrl.search },
      'GET',
    )
    expect(success.body).toMatchObject({
      status: 'paid',
      isSignedIn: false,
      isBuyer: false,
      invitation: null,
    })

    const [buyer] = await db.select().from(users).where(eq(users.email, email))
    expect(buyer).toMatchObject({ plan: 'tier3', planKind: 'lifetime', passwordHash: null })
    const subjects = (await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).map(
      (m) => m.subject,
    )
    expect(subjects.sort()).toEqual([
      'Set your Threadwork password',
      'Thank you for buying Threadwork Agency',
    ])

    const browser = await signedInBrowser(db, buyer?.id ?? '')
    const [invitation] = await db
      .select()
      .from(repositoryInvitations)
      .where(eq(repositoryInvitations.userId, buyer?.id ?? ''))
    expect(invitation?.status).toBe('needs-login')

    const bad = await callThroughMiddleware(billingAction, {
      url: '/settings/billing',
      headers: browser.headers(),
      form: browser.form({ intent: 'github-login', githubLogin: 'not a login!' }),
    })
    expect(bad.status).toBe(400)

    github.users.set('agency-dev', '99')
    const named = await callThroughMiddleware(billingAction, {
      url: '/settings/billing',
      headers: browser.headers(),
      form: browser.form({
        intent: 'github-login',
        githubLogin: 'agency-dev',
        redirectTo: successUrl.pathname + successUrl.search,
      }),
    })
    expect(named.status).toBe(302)
    expect(named.location).toBe(successUrl.pathname + successUrl.search)
    await createJobRunner({ handlers: jobHandlers, logError: () => {} }).runDue()
    expect(github.invitations.at(-1)?.login).toBe('agency-dev')
  })
})

describe('the success page', () => {
  test('pending until the webhook arrives; a session we never created is not found', async () => {
    const start = await startAsVisitor('1', 'lifetime')
    const sessionId = new URL(start.location ?? '').pathname.split('/').at(-1)
    const pending = await callThroughMiddleware(
      successLoader,
      { url: `/payment/success?session_id=${sessionId}` },
      'GET',
    )
    expect(pending.body).toMatchObject({ status: 'pending' })

    const forged = await callThroughMiddleware(
      successLoader,
      { url: '/payment/success?session_id=cs_test_forged&status=paid' },
      'GET',
    )
    expect(forged.status).toBe(404)
  })

  test('failed when Stripe says the payment failed', async () => {
    const start = await startAsVisitor('1', 'yearly')
    const sessionId = new URL(start.location ?? '').pathname.split('/').at(-1) ?? ''
    const { payload, header } = signEvent(
      stripeEvent('checkout.session.async_payment_failed', { id: sessionId, object: 'checkout.session' }),
    )
    await fetch(`${app.origin}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': header },
      body: payload,
    })
    const failed = await callThroughMiddleware(
      successLoader,
      { url: `/payment/success?session_id=${sessionId}` },
      'GET',
    )
    expect(failed.body).toMatchObject({ status: 'failed' })
  })
})

describe('billing pages belong to the buyer', () => {
  test('visitors are sent to sign in; a receipt is only its buyer’s', async () => {
    const visitor = await callThroughMiddleware(billingLoader, { url: '/settings/billing' }, 'GET')
    expect(visitor.status).toBe(302)
    expect(visitor.location).toBe('/login?redirect=%2Fsettings%2Fbilling')

    const buyer = await createUser(db)
    const session = paidSessionObject({ tier: 1, kind: 'lifetime', email: buyer.email, userId: buyer.id })
    const { payload, header } = signEvent(stripeEvent('checkout.session.completed', session))
    await fetch(`${app.origin}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': header },
      body: payload,
    })
    const [purchase] = await db.select().from(purchases).where(eq(purchases.userId, buyer.id))
    const url = `/settings/billing/receipts/${purchase?.id}`
    const params = { purchaseId: purchase?.id ?? '' }

    const own = await callThroughMiddleware(
      receiptLoader,
      { url, params, headers: (await signedInBrowser(db, buyer.id)).headers() },
      'GET',
    )
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({
      receipt: { amount: '$237.00', item: 'Solo, lifetime', email: buyer.email },
    })

    const stranger = await createUser(db)
    const other = await callThroughMiddleware(
      receiptLoader,
      { url, params, headers: (await signedInBrowser(db, stranger.id)).headers() },
      'GET',
    )
    expect(other.status).toBe(404)
  })

  test('a GitHub username GitHub does not know asks again instead of retrying', async () => {
    const buyer = await createUser(db)
    const session = paidSessionObject({ tier: 2, kind: 'lifetime', email: buyer.email, userId: buyer.id })
    const { payload, header } = signEvent(stripeEvent('checkout.session.completed', session))
    await fetch(`${app.origin}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': header },
      body: payload,
    })
    const browser = await signedInBrowser(db, buyer.id)
    await callThroughMiddleware(billingAction, {
      url: '/settings/billing',
      headers: browser.headers(),
      form: browser.form({ intent: 'github-login', githubLogin: 'nobody-at-all' }),
    })
    await createJobRunner({ handlers: jobHandlers, logError: () => {} }).runDue()
    const billing = await callThroughMiddleware(
      billingLoader,
      { url: '/settings/billing', headers: browser.headers() },
      'GET',
    )
    expect(billing.body).toMatchObject({
      invitation: {
        status: 'needs-login',
        githubLogin: null,
        lastError: 'GitHub has no user called nobody-at-all.',
      },
    })
  })
})

test('a plan switched in the customer portal gives the tier of its new price', async () => {
  const buyer = await createUser(db)
  const session = paidSessionObject({ tier: 1, kind: 'yearly', email: buyer.email, userId: buyer.id })
  const deliver = async (event: object) => {
    const { payload, header } = signEvent(event)
    const answer = await fetch(`${app.origin}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': header },
      body: payload,
    })
    expect(answer.status).toBe(200)
  }
  const now = Math.floor(Date.now() / 1000)
  for (const event of eventsForPayment(session, now)) await deliver(event)
  expect((await db.select().from(users).where(eq(users.id, buyer.id)))[0]?.plan).toBe('tier1')

  const switched = subscriptionObject(session.subscription as string, session.customer as string, {
    periodEnd: now + 365 * 24 * 60 * 60,
    price: stripeTestPrice(3, 'yearly'),
  })
  await deliver(stripeEvent('customer.subscription.updated', switched, now + 60))
  expect((await db.select().from(users).where(eq(users.id, buyer.id)))[0]).toMatchObject({
    plan: 'tier3',
    planKind: 'yearly',
  })
})
