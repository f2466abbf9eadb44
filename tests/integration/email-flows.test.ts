import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { clientAddressContext } from '~/auth/client-ip.server'
import { authMiddleware } from '~/auth/middleware.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { emailOutbox, users, verifications } from '~/db/schema'
import { smtpTransport } from '~/email/transport.server'
import { createOutboxWorker } from '~/email/worker.server'
import * as forgotPassword from '~/routes/email/forgot-password'
import * as requestVerification from '~/routes/email/request-verification'
import * as resetPassword from '~/routes/email/reset-password'
import * as verifyEmail from '~/routes/email/verify-email'
import {
  INVALID_RESET_LINK,
  INVALID_VERIFICATION_LINK,
  signInWithPassword,
  signUp,
} from '~/services/accounts.server'
import { createSession, findSession } from '~/services/sessions.server'
import { readToast } from '~/toast.server'
import { linkIn, type SmtpFixture, startSmtpServer } from '../fixtures/smtp-server'
import { createUser, TEST_PASSWORD } from '../helpers/factories'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../helpers/route'

/**
 * The e-mail pages driven the way a browser drives them — real Requests into loaders and
 * actions — with the e-mails delivered by the outbox worker to a real SMTP server, whose
 * messages the tests read and whose links they follow.
 */

// Sign-up and reset hash passwords with the real scrypt parameters (~1 s each on small machines).
vi.setConfig({ testTimeout: 30_000 })

let smtp: SmtpFixture
const worker = () => createOutboxWorker({ transport: smtpTransport(smtp.url, 'Threadwork <no-reply@test>') })

beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp.close()
})
beforeEach(async () => {
  smtp.messages.length = 0
  await database().delete(emailOutbox)
})

/** Sends what is queued, then returns the newest e-mail to `to` with that subject. */
async function deliveredEmail(to: string, subject: string) {
  const sender = worker()
  await sender.deliverDue()
  await sender.stop()
  const email = smtp.messages.filter((m) => m.to === to && m.subject === subject).at(-1)
  if (!email) throw new Error(`No "${subject}" e-mail to ${to}; got ${smtp.messages.map((m) => m.subject)}`)
  return email
}

/** A path with its query, as a browser would request it after following the link. */
const pathOf = (url: URL) => url.pathname + url.search

let nextIp = 1
/** Each test its own client address, so the per-IP rate limits of one never hit another. */
function freshClient() {
  const context = new RouterContextProvider()
  context.set(clientAddressContext, `192.0.2.${nextIp++}`)
  return context
}

async function signedInCookie(userId: string) {
  const { token } = await createSession(database(), userId)
  return { token, cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` }
}

async function toastOf(headers: Headers) {
  const { toast } = await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))
  return toast
}

async function userByEmail(email: string) {
  const [user] = await database().select().from(users).where(eq(users.email, email))
  if (!user) throw new Error(`no user ${email}`)
  return user
}

/** The messages conform puts above a form (`formErrors`). */
function formErrorsOf(data: unknown): string[] | undefined {
  const result = (data as { result?: { error?: Record<string, string[] | null> } }).result
  return result?.error?.[''] ?? undefined
}
function fieldErrorsOf(data: unknown, field: string): string[] | undefined {
  const result = (data as { result?: { error?: Record<string, string[] | null> } }).result
  return result?.error?.[field] ?? undefined
}

describe('/email/verify-email', () => {
  test("sign-up's e-mail → its link → one click → verified; opening the link alone changes nothing", async () => {
    await signUp(database(), { name: 'Ada', email: 'ada@example.test', password: 'a long password' }, {})
    const email = await deliveredEmail('ada@example.test', 'Verify your e-mail address')
    expect(email.text).toContain('Welcome, Ada!')
    const link = linkIn(email, '/email/verify-email')
    expect(link.origin).toBe('http://localhost:3000')

    const page = await callLoader(verifyEmail.loader, { url: pathOf(link) })
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({ failure: null, token: link.searchParams.get('token') })
    // A mail scanner's GET did not spend the link, nor verify anything.
    expect((await userByEmail('ada@example.test')).emailVerifiedAt).toBeNull()

    const confirmed = await callAction(verifyEmail.action, {
      url: pathOf(link),
      form: { token: link.searchParams.get('token') ?? '' },
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.data).toMatchObject({ verifiedEmail: 'ada@example.test' })
    expect((await userByEmail('ada@example.test')).emailVerifiedAt).toBeInstanceOf(Date)
  })

  test('a link works once: a second visit and a second click show the invalid-link message', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const { cookie } = await signedInCookie(user.id)
    await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
      form: {},
    })
    const link = linkIn(await deliveredEmail(user.email, 'Verify your e-mail address'), '/email/verify-email')
    const token = link.searchParams.get('token') ?? ''

    const first = await callAction(verifyEmail.action, { url: pathOf(link), form: { token } })
    expect(first.data).toMatchObject({ verifiedEmail: user.email })

    const again = await callLoader(verifyEmail.loader, { url: pathOf(link) })
    expect(again.status).toBe(400)
    expect(again.data).toMatchObject({ failure: INVALID_VERIFICATION_LINK })
    const clickedAgain = await callAction(verifyEmail.action, { url: pathOf(link), form: { token } })
    expect(clickedAgain.status).toBe(400)
    expect(formErrorsOf(clickedAgain.data)).toEqual([INVALID_VERIFICATION_LINK])
  })

  test('a link expires after an hour', async () => {
    await signUp(database(), { name: 'Lin', email: 'lin@example.test', password: 'a long password' }, {})
    const link = linkIn(
      await deliveredEmail('lin@example.test', 'Verify your e-mail address'),
      '/email/verify-email',
    )
    const user = await userByEmail('lin@example.test')
    const [row] = await database().select().from(verifications).where(eq(verifications.userId, user.id))
    // Issued for one hour…
    const lifetime = row ? row.expiresAt.getTime() - row.createdAt.getTime() : 0
    expect(Math.abs(lifetime - 60 * 60 * 1000)).toBeLessThan(1_000)
    // …and an hour has passed.
    await database()
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(verifications.userId, user.id))

    expect((await callLoader(verifyEmail.loader, { url: pathOf(link) })).data).toMatchObject({
      failure: INVALID_VERIFICATION_LINK,
    })
    const clicked = await callAction(verifyEmail.action, {
      url: pathOf(link),
      form: { token: link.searchParams.get('token') ?? '' },
    })
    expect(formErrorsOf(clicked.data)).toEqual([INVALID_VERIFICATION_LINK])
    expect((await userByEmail('lin@example.test')).emailVerifiedAt).toBeNull()
  })

  test('a missing token and a made-up token are clear errors', async () => {
    const missing = await callLoader(verifyEmail.loader, { url: '/email/verify-email' })
    expect(missing.status).toBe(400)
    expect(missing.data).toMatchObject({ failure: 'The verification link is missing its token.' })
    const empty = await callLoader(verifyEmail.loader, { url: '/email/verify-email?token=' })
    expect(empty.data).toMatchObject({ failure: 'The verification link is missing its token.' })
    const madeUp = await callLoader(verifyEmail.loader, { url: '/email/verify-email?token=not-a-real-token' })
    expect(madeUp.data).toMatchObject({ failure: INVALID_VERIFICATION_LINK })

    const posted = await callAction(verifyEmail.action, { url: '/email/verify-email', form: {} })
    expect(posted.status).toBe(400)
    expect(fieldErrorsOf(posted.data, 'token')).toEqual(['The verification link is missing its token.'])
  })

  test('signed in as the owner: verified, on to the dashboard with a success toast', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const { cookie } = await signedInCookie(user.id)
    await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
      form: {},
    })
    const link = linkIn(await deliveredEmail(user.email, 'Verify your e-mail address'), '/email/verify-email')

    const result = await callAction(verifyEmail.action, {
      url: pathOf(link),
      headers: { Cookie: cookie },
      form: { token: link.searchParams.get('token') ?? '' },
    })
    expect(result.status).toBe(302)
    expect(result.location).toBe('/dashboard')
    expect(await toastOf(result.headers)).toMatchObject({ type: 'success', title: 'E-mail address verified' })
    expect((await userByEmail(user.email)).emailVerifiedAt).toBeInstanceOf(Date)
  })

  test('signed in as someone else: the owner is verified, the page says so and offers Sign In', async () => {
    const owner = await createUser(database(), { emailVerifiedAt: null })
    const { cookie: ownerCookie } = await signedInCookie(owner.id)
    await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: ownerCookie },
      form: {},
    })
    const link = linkIn(
      await deliveredEmail(owner.email, 'Verify your e-mail address'),
      '/email/verify-email',
    )
    const someoneElse = await createUser(database())
    const { cookie } = await signedInCookie(someoneElse.id)

    const result = await callAction(verifyEmail.action, {
      url: pathOf(link),
      headers: { Cookie: cookie },
      form: { token: link.searchParams.get('token') ?? '' },
    })
    expect(result.status).toBe(200)
    expect(result.data).toMatchObject({ verifiedEmail: owner.email })
    expect((await userByEmail(owner.email)).emailVerifiedAt).toBeInstanceOf(Date)
    expect((await userByEmail(someoneElse.email)).emailVerifiedAt).toBeInstanceOf(Date)
  })
})

describe('/email/request-verification', () => {
  test('sends signed-out visitors to sign in, and back here afterwards', async () => {
    const result = await callLoader(requestVerification.loader, { url: '/email/request-verification' })
    expect(result.status).toBe(302)
    expect(result.location).toBe(`/login?${new URLSearchParams({ redirect: '/email/request-verification' })}`)
    const posted = await callAction(requestVerification.action, {
      url: '/email/request-verification',
      form: {},
    })
    expect(posted.status).toBe(302)
    expect(posted.location).toMatch(/^\/login\?redirect=/)
  })

  test('a verified user is told so, and no e-mail is queued', async () => {
    const user = await createUser(database())
    const { cookie } = await signedInCookie(user.id)
    const page = await callLoader(requestVerification.loader, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
    })
    expect(page.data).toEqual({ email: user.email, isVerified: true })

    const posted = await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
      form: {},
    })
    expect(posted.status).toBe(409)
    expect(formErrorsOf(posted.data)).toEqual(['Your e-mail address is already verified.'])
    expect(await database().select().from(emailOutbox)).toEqual([])
  })

  test('resends a working link and goes back to the page the banner was on', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const { cookie } = await signedInCookie(user.id)
    const page = await callLoader(requestVerification.loader, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
    })
    expect(page.data).toEqual({ email: user.email, isVerified: false })

    const posted = await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
      form: { redirectTo: '/dashboard?tab=1' },
    })
    expect(posted.status).toBe(302)
    expect(posted.location).toBe('/dashboard?tab=1')
    expect(await toastOf(posted.headers)).toMatchObject({
      type: 'success',
      title: 'Verification e-mail sent',
      description: expect.stringContaining(user.email),
    })

    const link = linkIn(await deliveredEmail(user.email, 'Verify your e-mail address'), '/email/verify-email')
    const confirmed = await callAction(verifyEmail.action, {
      url: pathOf(link),
      form: { token: link.searchParams.get('token') ?? '' },
    })
    expect(confirmed.data).toMatchObject({ verifiedEmail: user.email })
  })

  test('never redirects off-site', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const { cookie } = await signedInCookie(user.id)
    const posted = await callAction(requestVerification.action, {
      url: '/email/request-verification',
      headers: { Cookie: cookie },
      form: { redirectTo: '//evil.example/phish' },
    })
    expect(posted.location).toBe('/email/request-verification')
  })

  test('is rate-limited: 429 with Retry-After and a message on the page', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const { cookie } = await signedInCookie(user.id)
    const resend = () =>
      callAction(requestVerification.action, {
        url: '/email/request-verification',
        headers: { Cookie: cookie },
        form: {},
      })
    for (let n = 0; n < 3; n++) expect((await resend()).status).toBe(302)
    const limited = await resend()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(formErrorsOf(limited.data)).toEqual([
      'Too many verification e-mails. Check your inbox or try again later.',
    ])
    expect(await database().select().from(emailOutbox)).toHaveLength(3)
  })
})

describe('/email/forgot-password', () => {
  test('answers a known and an unknown address the same way; only the account holder gets mail', async () => {
    const user = await createUser(database())
    const context = freshClient()
    const known = await callAction(forgotPassword.action, {
      url: '/email/forgot-password',
      form: { email: user.email.toUpperCase() },
      context,
    })
    const unknown = await callAction(forgotPassword.action, {
      url: '/email/forgot-password',
      form: { email: 'nobody@example.test' },
      context: freshClient(),
    })
    for (const answer of [known, unknown]) {
      expect(answer.status).toBe(302)
      expect(answer.location).toBe('/email/forgot-password?sent')
      expect(answer.headers.getSetCookie()).toEqual([])
    }

    const page = await callLoader(forgotPassword.loader, { url: '/email/forgot-password?sent' })
    expect(page.data).toMatchObject({ isSent: true })
    expect(page.data.csrfToken).toBeTruthy()
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')

    const email = await deliveredEmail(user.email, 'Reset your Threadwork password')
    expect(linkIn(email, '/email/reset-password').searchParams.get('token')).toBeTruthy()
    expect(smtp.messages.map((m) => m.to)).toEqual([user.email])
  })

  test('an invalid address is a field error and sends nothing', async () => {
    const result = await callAction(forgotPassword.action, {
      url: '/email/forgot-password',
      form: { email: 'not-an-address' },
      context: freshClient(),
    })
    expect(result.status).toBe(400)
    expect(fieldErrorsOf(result.data, 'email')).toEqual(['Enter a valid e-mail address'])
    expect(await database().select().from(emailOutbox)).toEqual([])
  })

  test('is rate-limited per address, for unknown addresses too: 429 with Retry-After', async () => {
    const ask = () =>
      callAction(forgotPassword.action, {
        url: '/email/forgot-password',
        form: { email: 'someone-unknown@example.test' },
        context: freshClient(),
      })
    for (let n = 0; n < 3; n++) expect((await ask()).status).toBe(302)
    const limited = await ask()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(formErrorsOf(limited.data)).toEqual(['Too many reset requests for this e-mail. Try again later.'])
  })
})

describe('/email/reset-password', () => {
  async function resetLinkFor(email: string) {
    await callAction(forgotPassword.action, {
      url: '/email/forgot-password',
      form: { email },
      context: freshClient(),
    })
    return linkIn(await deliveredEmail(email, 'Reset your Threadwork password'), '/email/reset-password')
  }

  test('forgot → e-mail → new password: every old session ends, the new password works, the old does not', async () => {
    const user = await createUser(database(), { emailVerifiedAt: null })
    const laptop = await signedInCookie(user.id)
    const phone = await signedInCookie(user.id)
    const link = await resetLinkFor(user.email)
    const token = link.searchParams.get('token') ?? ''

    const page = await callLoader(resetPassword.loader, { url: pathOf(link) })
    expect(page.data).toMatchObject({ failure: null, token })

    const mismatch = await callAction(resetPassword.action, {
      url: pathOf(link),
      form: { token, password: 'brand new password', confirmPassword: 'something else' },
    })
    expect(mismatch.status).toBe(400)
    expect(fieldErrorsOf(mismatch.data, 'confirmPassword')).toEqual(['Passwords do not match'])

    const tooShort = await callAction(resetPassword.action, {
      url: pathOf(link),
      form: { token, password: 'short', confirmPassword: 'short' },
    })
    expect(fieldErrorsOf(tooShort.data, 'password')).toEqual(['Password must be at least 8 characters'])

    const done = await callAction(resetPassword.action, {
      url: pathOf(link),
      headers: { Cookie: laptop.cookie },
      form: { token, password: 'brand new password', confirmPassword: 'brand new password' },
    })
    expect(done.status).toBe(302)
    expect(done.location).toBe('/login')
    expect(await toastOf(done.headers)).toMatchObject({ type: 'success', title: 'Password changed' })
    expect(done.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true)

    expect(await findSession(database(), laptop.token)).toBeNull()
    expect(await findSession(database(), phone.token)).toBeNull()
    const signedIn = await signInWithPassword(
      database(),
      { email: user.email, password: 'brand new password' },
      { ip: '198.51.100.1' },
    )
    expect(signedIn).toMatchObject({ id: user.id, emailVerified: true })
    await expect(
      signInWithPassword(database(), { email: user.email, password: TEST_PASSWORD }, { ip: '198.51.100.2' }),
    ).rejects.toThrow('Invalid e-mail or password.')

    const notice = await deliveredEmail(user.email, 'Your Threadwork password was changed')
    expect(notice.text).toContain('every other session was signed out')
  })

  test('a used link shows the invalid-link message and changes nothing', async () => {
    const user = await createUser(database())
    const link = await resetLinkFor(user.email)
    const token = link.searchParams.get('token') ?? ''
    const form = { token, password: 'first new password', confirmPassword: 'first new password' }
    expect((await callAction(resetPassword.action, { url: pathOf(link), form })).status).toBe(302)

    expect((await callLoader(resetPassword.loader, { url: pathOf(link) })).data).toMatchObject({
      failure: INVALID_RESET_LINK,
    })
    const reused = await callAction(resetPassword.action, {
      url: pathOf(link),
      form: { token, password: 'second new password', confirmPassword: 'second new password' },
    })
    expect(reused.status).toBe(400)
    expect(formErrorsOf(reused.data)).toEqual([INVALID_RESET_LINK])
    await expect(
      signInWithPassword(
        database(),
        { email: user.email, password: 'first new password' },
        { ip: '198.51.100.3' },
      ),
    ).resolves.toMatchObject({ id: user.id })
  })

  test('an expired link is refused; a missing token is a clear error', async () => {
    const user = await createUser(database())
    const link = await resetLinkFor(user.email)
    await database()
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(verifications.userId, user.id))
    expect((await callLoader(resetPassword.loader, { url: pathOf(link) })).data).toMatchObject({
      failure: INVALID_RESET_LINK,
    })
    const posted = await callAction(resetPassword.action, {
      url: pathOf(link),
      form: {
        token: link.searchParams.get('token') ?? '',
        password: 'a new password',
        confirmPassword: 'a new password',
      },
    })
    expect(formErrorsOf(posted.data)).toEqual([INVALID_RESET_LINK])

    const missing = await callLoader(resetPassword.loader, { url: '/email/reset-password' })
    expect(missing.status).toBe(400)
    expect(missing.data).toMatchObject({ failure: 'The password reset link is missing its token.' })
  })
})

describe('pages that carry a token in their URL', () => {
  test.each([
    ['/email/verify-email', verifyEmail.headers],
    ['/email/reset-password', resetPassword.headers],
  ])('%s stays out of caches', (_path, headers) => {
    expect(new Headers(headers({} as never))).toEqual(new Headers({ 'Cache-Control': 'private, no-store' }))
  })
})

describe('CSRF', () => {
  test.each([
    '/email/verify-email',
    '/email/request-verification',
    '/email/forgot-password',
    '/email/reset-password',
  ])('POST %s without a token answers 403', async (path) => {
    const request = buildRequest({ url: path, method: 'POST', form: { email: 'a@example.test', token: 'x' } })
    const next = async () => new Response('the action ran')
    const outcome = await Promise.resolve(
      authMiddleware(
        {
          request,
          context: new RouterContextProvider(),
          params: {},
          url: new URL(request.url),
          pattern: path,
        } as never,
        next,
      ),
    ).catch((error: unknown) => error)
    expect(outcome).toMatchObject({ init: { status: 403 }, data: 'Invalid CSRF token' })
  })
})
