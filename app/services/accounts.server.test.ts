import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { users, verifications } from '~/db/schema'
import { SignUpSchema } from '~/services/account-schemas'
import { verifyPassword } from '~/utils/crypto.server'
import { client, outboxTo, REAL_SCRYPT, userRow } from '../../tests/helpers/account-service'
import { createUser, TEST_PASSWORD } from '../../tests/helpers/factories'
import { failure } from '../../tests/helpers/failure'
import { INVALID_CREDENTIALS, RATE_LIMITS, signInWithPassword, signUp } from './accounts.server'
import { Conflict, RateLimited, Unauthorized } from './errors'

/**
 * The account service: every rule the sign-in forms and /api/auth share. Existing users come from
 * the factories with cheap hashes; only the cases that set a new password pay for real scrypt.
 */

describe('signUp', () => {
  test(
    'creates an unverified user with a scrypt hash, a lower-cased address and a queued verification e-mail',
    REAL_SCRYPT,
    async () => {
      const db = database()
      // Addresses are normalised by the schema the forms and /api/auth both parse with.
      const input = SignUpSchema.parse({
        name: 'Ada',
        email: '  Ada@Example.TEST ',
        password: 'a long password',
      })

      const user = await signUp(db, input, client())

      expect(user).toEqual({
        id: expect.any(String),
        name: 'Ada',
        email: 'ada@example.test',
        image: null,
        emailVerified: false,
      })
      const row = await userRow(user.id)
      expect(row?.email).toBe('ada@example.test')
      expect(row?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/)
      expect(row?.passwordHash).not.toContain('a long password')
      expect(await verifyPassword('a long password', row?.passwordHash ?? '')).toBe(true)

      const mail = await outboxTo('ada@example.test')
      expect(mail).toHaveLength(1)
      expect(mail[0]).toMatchObject({ subject: 'Verify your e-mail address', status: 'pending' })
      expect(mail[0]?.text).toContain('/email/verify-email?token=')
      const [token] = await db.select().from(verifications).where(eq(verifications.userId, user.id))
      expect(token).toMatchObject({ purpose: 'verify-email', email: 'ada@example.test', usedAt: null })
      // Only the hash of the link's token is stored.
      const linkToken = new URL(
        /https?:\/\/\S+/.exec(mail[0]?.text ?? '')?.[0] ?? 'http://x',
      ).searchParams.get('token')
      expect(linkToken).toBeTruthy()
      expect(token?.tokenHash).not.toBe(linkToken)
    },
  )

  test('refuses an address that already has an account (Conflict), creating nothing', async () => {
    const db = database()
    await createUser(db, { email: 'taken@example.test' })

    const error = await failure(
      signUp(db, { name: 'Other', email: 'taken@example.test', password: 'a long password' }, client()),
    )

    expect(error).toBeInstanceOf(Conflict)
    expect(error.message).toBe('An account with this e-mail already exists. Sign in instead.')
    expect(await db.select().from(users).where(eq(users.email, 'taken@example.test'))).toHaveLength(1)
    expect(await outboxTo('taken@example.test')).toEqual([])
  })

  test('the 11th sign-up from one address within the hour is rate limited', async () => {
    const db = database()
    await createUser(db, { email: 'exists@example.test' })
    const ip = client()
    // Refused sign-ups count too (and cost no hashing here).
    for (let attempt = 0; attempt < RATE_LIMITS.signUpPerIp.limit; attempt++) {
      expect(
        await failure(
          signUp(db, { name: 'X', email: 'exists@example.test', password: 'a long password' }, ip),
        ),
      ).toBeInstanceOf(Conflict)
    }
    const error = await failure(
      signUp(db, { name: 'X', email: 'new@example.test', password: 'a long password' }, ip),
    )
    expect(error).toBeInstanceOf(RateLimited)
    expect(error.message).toBe('Too many sign-ups from this network. Try again later.')
    expect((error as RateLimited).retryAfter).toBeGreaterThan(59 * 60)
    expect((error as RateLimited).retryAfter).toBeLessThanOrEqual(60 * 60)
  })
})

describe('signInWithPassword', () => {
  test('the right password gives the session user', async () => {
    const db = database()
    const user = await createUser(db, { name: 'Grace' })
    const signedIn = await signInWithPassword(db, { email: user.email, password: TEST_PASSWORD }, client())
    expect(signedIn).toEqual({
      id: user.id,
      name: 'Grace',
      email: user.email,
      image: null,
      emailVerified: true,
    })
  })

  test('an unverified user can sign in (a banner asks them to verify)', async () => {
    const db = database()
    const user = await createUser(db, { emailVerifiedAt: null })
    const signedIn = await signInWithPassword(db, { email: user.email, password: TEST_PASSWORD }, client())
    expect(signedIn.emailVerified).toBe(false)
  })

  test('a wrong password and an unknown address get the same answer', REAL_SCRYPT, async () => {
    const db = database()
    const user = await createUser(db)

    const wrong = await failure(signInWithPassword(db, { email: user.email, password: 'not it' }, client()))
    const unknown = await failure(
      signInWithPassword(db, { email: 'nobody@example.test', password: TEST_PASSWORD }, client()),
    )

    expect(wrong).toBeInstanceOf(Unauthorized)
    expect(unknown).toBeInstanceOf(Unauthorized)
    expect(wrong.message).toBe('Invalid e-mail or password.')
    expect(unknown.message).toBe(INVALID_CREDENTIALS)
  })

  test('an account without a password (OAuth only) cannot be opened with one', REAL_SCRYPT, async () => {
    const db = database()
    const user = await createUser(db, { password: null })
    const error = await failure(signInWithPassword(db, { email: user.email, password: '' }, client()))
    expect(error).toBeInstanceOf(Unauthorized)
    expect(error.message).toBe(INVALID_CREDENTIALS)
  })

  test('brute force: the 11th attempt for one address in 15 minutes is refused, even from many addresses and with the right password', async () => {
    const db = database()
    const user = await createUser(db)
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(
        await failure(signInWithPassword(db, { email: user.email, password: `guess ${attempt}` }, client())),
      ).toBeInstanceOf(Unauthorized)
    }

    const limited = await failure(
      signInWithPassword(db, { email: user.email, password: 'guess 11' }, client()),
    )
    expect(limited).toBeInstanceOf(RateLimited)
    expect(limited.message).toBe('Too many sign-in attempts for this e-mail. Try again later.')
    expect((limited as RateLimited).retryAfter).toBeGreaterThan(14 * 60)
    expect((limited as RateLimited).retryAfter).toBeLessThanOrEqual(15 * 60)

    // While locked, the right password is refused too: the lock is what stops guessing.
    expect(
      await failure(signInWithPassword(db, { email: user.email, password: TEST_PASSWORD }, client())),
    ).toBeInstanceOf(RateLimited)
  })

  test('a successful sign-in resets the count for that address', async () => {
    const db = database()
    const user = await createUser(db)
    for (let attempt = 0; attempt < 9; attempt++) {
      await failure(signInWithPassword(db, { email: user.email, password: 'wrong' }, client()))
    }
    await signInWithPassword(db, { email: user.email, password: TEST_PASSWORD }, client())

    // Ten fresh failures are allowed again before the lock.
    for (let attempt = 0; attempt < 9; attempt++) {
      expect(
        await failure(signInWithPassword(db, { email: user.email, password: 'wrong' }, client())),
      ).toBeInstanceOf(Unauthorized)
    }
    expect(
      await failure(signInWithPassword(db, { email: user.email, password: 'wrong' }, client())),
    ).toBeInstanceOf(Unauthorized)
    expect(
      await failure(signInWithPassword(db, { email: user.email, password: 'wrong' }, client())),
    ).toBeInstanceOf(RateLimited)
  })

  test('one address trying many accounts is stopped after 30 attempts in 15 minutes', async () => {
    const db = database()
    const ip = client()
    const victims = await Promise.all(Array.from({ length: 4 }, () => createUser(db)))
    for (let attempt = 0; attempt < RATE_LIMITS.signInPerIp.limit; attempt++) {
      const victim = victims[attempt % victims.length]
      await failure(signInWithPassword(db, { email: victim?.email ?? '', password: 'wrong' }, ip))
    }
    const fresh = await createUser(db)
    const error = await failure(signInWithPassword(db, { email: fresh.email, password: TEST_PASSWORD }, ip))
    expect(error).toBeInstanceOf(RateLimited)
    expect(error.message).toBe('Too many sign-in attempts. Try again later.')
    // Other addresses are not affected.
    await expect(
      signInWithPassword(db, { email: fresh.email, password: TEST_PASSWORD }, client()),
    ).resolves.toMatchObject({ id: fresh.id })
  })
})
