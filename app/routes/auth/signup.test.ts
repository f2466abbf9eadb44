import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, users } from '~/db/schema'
import { findSession } from '~/services/sessions.server'
import { readToast } from '~/toast.server'
import { clientContext, sessionCookieOf, signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import { action, loader } from './signup'

/** /signup through real Requests: one real sign-up (real scrypt), and every way it can be refused. */

type Reply = { result?: { error?: Record<string, string[] | null> } }
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

describe('loader', () => {
  test('a visitor gets a token and the local redirect target; a signed-in user is sent on', async () => {
    const page = await callLoader(loader, { url: '/signup?redirect=%2Fsettings' })
    expect(page.data).toMatchObject({ redirect: '/settings', csrfToken: expect.any(String) })
    expect((await callLoader(loader, { url: '/signup?redirect=%2F%2Fevil.com' })).data).toMatchObject({
      redirect: '',
    })

    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const away = await callLoader(loader, { url: '/signup', headers: { Cookie: browser.cookie } })
    expect(away).toMatchObject({ status: 302, location: '/dashboard' })
  })
})

describe('action', () => {
  test('success: signed in (session cookie), sent to the target with a welcome toast, verification e-mail queued', {
    timeout: 60_000,
  }, async () => {
    const db = database()
    const answer = await callAction(action, {
      url: '/signup',
      form: {
        name: 'Ada Lovelace',
        email: 'Ada@Example.TEST',
        password: 'a long password',
        redirect: '/settings',
      },
      context: clientContext(),
    })

    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/settings')
    const [user] = await db.select().from(users).where(eq(users.email, 'ada@example.test'))
    expect(user).toMatchObject({ name: 'Ada Lovelace', emailVerifiedAt: null })
    const session = await findSession(db, sessionCookieOf(answer.headers) ?? '')
    expect(session?.user).toMatchObject({ id: user?.id, emailVerified: false })

    const { toast } = await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(answer.headers) } }))
    expect(toast).toMatchObject({
      type: 'success',
      title: 'Welcome to Threadwork!',
      description: 'We sent a link to ada@example.test to verify your address.',
    })
    const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'ada@example.test'))
    expect(mail.map((row) => row.subject)).toEqual(['Verify your e-mail address'])
  })

  test('an address that has an account answers 409 with the message, and signs nobody in', async () => {
    const db = database()
    await createUser(db, { email: 'taken@example.test' })
    const answer = await callAction(action, {
      url: '/signup',
      form: { name: 'Someone', email: 'TAKEN@example.test', password: 'a long password' },
      context: clientContext(),
    })
    expect(answer.status).toBe(409)
    expect(errorsOf(answer.data)).toEqual(['An account with this e-mail already exists. Sign in instead.'])
    expect(sessionCookieOf(answer.headers)).toBeUndefined()
    expect(JSON.stringify(answer.data)).not.toContain('a long password')
  })

  test('bad input answers 400 with a message per field; nothing is created', async () => {
    const answer = await callAction(action, {
      url: '/signup',
      form: { name: ' ', email: 'nope', password: 'short' },
      context: clientContext(),
    })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data, 'name')).toEqual(['Name is required'])
    expect(errorsOf(answer.data, 'email')).toEqual(['Enter a valid e-mail address'])
    expect(errorsOf(answer.data, 'password')).toEqual(['Password must be at least 8 characters'])
    expect(await database().select().from(users).where(eq(users.email, 'nope'))).toEqual([])
  })

  test('the 11th sign-up from one network within an hour answers 429 with Retry-After', async () => {
    const db = database()
    await createUser(db, { email: 'again@example.test' })
    const context = clientContext()
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await callAction(action, {
        url: '/signup',
        form: { name: 'Again', email: 'again@example.test', password: 'a long password' },
        context,
      })
      expect(answer.status).toBe(409)
    }
    const limited = await callAction(action, {
      url: '/signup',
      form: { name: 'New', email: 'new-person@example.test', password: 'a long password' },
      context,
    })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(errorsOf(limited.data)).toEqual(['Too many sign-ups from this network. Try again later.'])
  })
})
