import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import {
  accounts,
  chatMessages,
  chats,
  commentReactions,
  comments,
  emailOutbox,
  sessions,
  tasks,
  users,
  verifications,
} from '~/db/schema'
import { SignUpSchema } from '~/services/account-schemas'
import { createSession, findSession } from '~/services/sessions.server'
import { verifyPassword } from '~/utils/crypto.server'
import {
  addReaction,
  createComment,
  createTask,
  createUser,
  TEST_PASSWORD,
} from '../../tests/helpers/factories'
import {
  changePassword,
  deleteAccount,
  getAccount,
  INVALID_CREDENTIALS,
  RATE_LIMITS,
  signInWithPassword,
  signUp,
  updateProfile,
} from './accounts.server'
import { Conflict, Forbidden, Invalid, NotFound, RateLimited, Unauthorized } from './errors'

/**
 * The account service: every rule the sign-in forms and /api/auth share. Existing users come from
 * the factories with cheap hashes; only the cases that set a new password pay for real scrypt.
 */

/** Real scrypt at N=2^17 takes ~0.3 s alone but several seconds on a busy two-core machine. */
const REAL_SCRYPT = { timeout: 60_000 }

let ipSequence = 0
/** Each case its own client address, so per-IP limits only bite where a test means them to. */
const client = () => ({ ip: `192.0.2.${++ipSequence}` })

async function userRow(id: string) {
  const [row] = await database().select().from(users).where(eq(users.id, id))
  return row
}

async function outboxTo(email: string) {
  return database().select().from(emailOutbox).where(eq(emailOutbox.to, email))
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('Expected the call to fail')
}

describe('signUp', () => {
  test(
    'creates an unverified user with a scrypt hash, a lower-cased address and a queued verification e-mail',
    REAL_SCRYPT,
    async () => {
      const db = database()
      // Addresses are normalised by the schema both doors parse with.
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

describe('updateProfile and getAccount', () => {
  test('changes the name and image; an image left out is cleared', async () => {
    const db = database()
    const user = await createUser(db, { image: 'https://img.example.test/old.png' })

    const updated = await updateProfile(db, user.id, {
      name: 'Ada L.',
      image: 'https://img.example.test/new.png',
    })
    expect(updated).toMatchObject({ name: 'Ada L.', image: 'https://img.example.test/new.png' })
    expect(await userRow(user.id)).toMatchObject({
      name: 'Ada L.',
      image: 'https://img.example.test/new.png',
    })

    await updateProfile(db, user.id, { name: 'Ada L.' })
    expect((await userRow(user.id))?.image).toBeNull()
  })

  test('an unknown user is NotFound', async () => {
    expect(await failure(updateProfile(database(), 'no-such-user', { name: 'X' }))).toBeInstanceOf(NotFound)
    expect(await failure(getAccount(database(), 'no-such-user'))).toBeInstanceOf(NotFound)
  })

  test('getAccount tells whether there is a password and which providers are linked', async () => {
    const db = database()
    const oauthOnly = await createUser(db, { password: null })
    await db.insert(accounts).values({ userId: oauthOnly.id, provider: 'github', providerAccountId: 'gh-1' })
    expect(await getAccount(db, oauthOnly.id)).toMatchObject({ hasPassword: false, providers: ['github'] })
    expect(await getAccount(db, (await createUser(db)).id)).toMatchObject({
      hasPassword: true,
      providers: [],
    })
  })
})

describe('changePassword', () => {
  test('a wrong current password is Invalid on that field, and nothing changes', async () => {
    const db = database()
    const user = await createUser(db)
    const current = await createSession(db, user.id)
    const other = await createSession(db, user.id)

    const error = await failure(
      changePassword(db, user.id, current.id, { currentPassword: 'not it', newPassword: 'a new password' }),
    )

    expect(error).toBeInstanceOf(Invalid)
    expect(error.message).toBe('Current password is incorrect.')
    expect((error as Invalid).issues).toEqual([
      { path: ['currentPassword'], message: 'Current password is incorrect.' },
    ])
    expect((await userRow(user.id))?.passwordHash).toBe(user.passwordHash)
    expect(await findSession(db, other.token)).not.toBeNull()
    // A missing current password is just as wrong.
    expect(
      await failure(changePassword(db, user.id, current.id, { newPassword: 'a new password' })),
    ).toBeInstanceOf(Invalid)
  })

  test(
    'the right current password sets the new one, signs out every other session and tells the owner',
    REAL_SCRYPT,
    async () => {
      const db = database()
      const user = await createUser(db)
      const current = await createSession(db, user.id)
      const phone = await createSession(db, user.id)
      const tablet = await createSession(db, user.id)
      const stranger = await createSession(db, (await createUser(db)).id)

      await changePassword(db, user.id, current.id, {
        currentPassword: TEST_PASSWORD,
        newPassword: 'a new password',
      })

      const stored = (await userRow(user.id))?.passwordHash ?? ''
      expect(stored).toMatch(/^scrypt\$131072\$/)
      expect(await verifyPassword('a new password', stored)).toBe(true)
      expect(await findSession(db, current.token)).not.toBeNull()
      expect(await findSession(db, phone.token)).toBeNull()
      expect(await findSession(db, tablet.token)).toBeNull()
      expect(await findSession(db, stranger.token)).not.toBeNull()
      expect((await outboxTo(user.email)).map((mail) => mail.subject)).toEqual([
        'Your Threadwork password was changed',
      ])
    },
  )

  test('an OAuth-only account sets a first password without a current one', REAL_SCRYPT, async () => {
    const db = database()
    const user = await createUser(db, { password: null })
    const current = await createSession(db, user.id)

    await changePassword(db, user.id, current.id, { newPassword: 'my first password' })

    expect(await getAccount(db, user.id)).toMatchObject({ hasPassword: true })
    // The new password now opens the account.
    await expect(
      signInWithPassword(db, { email: user.email, password: 'my first password' }, client()),
    ).resolves.toMatchObject({ id: user.id })
  })
})

describe('deleteAccount', () => {
  async function everythingOf(userId: string) {
    const db = database()
    const own = (table: typeof tasks | typeof comments | typeof sessions | typeof chats | typeof accounts) =>
      db.select().from(table).where(eq(table.userId, userId))
    return {
      user: await userRow(userId),
      tasks: await own(tasks),
      comments: await own(comments),
      sessions: await own(sessions),
      chats: await own(chats),
      accounts: await own(accounts),
      reactions: await db.select().from(commentReactions).where(eq(commentReactions.userId, userId)),
    }
  }

  test('needs the password: missing or wrong is Forbidden and keeps everything', async () => {
    const db = database()
    const user = await createUser(db)
    await createTask(db, { userId: user.id })

    for (const password of [undefined, '', 'not it']) {
      const error = await failure(deleteAccount(db, user.id, { password }))
      expect(error).toBeInstanceOf(Forbidden)
      expect(error.message).toBe('Password is incorrect; the account was not deleted.')
    }
    // A typed phrase is no substitute for an account that has a password.
    expect(await failure(deleteAccount(db, user.id, { confirmation: 'delete my account' }))).toBeInstanceOf(
      Forbidden,
    )
    expect((await everythingOf(user.id)).tasks).toHaveLength(1)
  })

  test("with the password, deletes the user with their tasks, comments, reactions, chats and sessions — and nobody else's", async () => {
    const db = database()
    const leaving = await createUser(db)
    const staying = await createUser(db)

    const ownTask = await createTask(db, { userId: leaving.id })
    const replyOnOwn = await createComment(db, { taskId: ownTask.id, userId: staying.id })
    const staysTask = await createTask(db, { userId: staying.id })
    const leavingComment = await createComment(db, { taskId: staysTask.id, userId: leaving.id })
    const stayingComment = await createComment(db, { taskId: staysTask.id, userId: staying.id })
    await addReaction(db, { commentId: stayingComment.id, userId: leaving.id })
    const [chat] = await db.insert(chats).values({ userId: leaving.id, title: 'Plans' }).returning()
    await db.insert(chatMessages).values({ chatId: chat?.id ?? '', role: 'user', content: 'Hello' })
    await db.insert(accounts).values({ userId: leaving.id, provider: 'google', providerAccountId: 'g-1' })
    const session = await createSession(db, leaving.id)
    const stayingSession = await createSession(db, staying.id)

    await deleteAccount(db, leaving.id, { password: TEST_PASSWORD })

    expect(await everythingOf(leaving.id)).toEqual({
      user: undefined,
      tasks: [],
      comments: [],
      sessions: [],
      chats: [],
      accounts: [],
      reactions: [],
    })
    expect(await findSession(db, session.token)).toBeNull()
    expect(
      await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.chatId, chat?.id ?? '')),
    ).toEqual([])
    // A reply by someone else on the deleted user's task goes with the task.
    expect(await db.select().from(comments).where(eq(comments.id, replyOnOwn.id))).toEqual([])
    expect(await db.select().from(comments).where(eq(comments.id, leavingComment.id))).toEqual([])

    const kept = await everythingOf(staying.id)
    expect(kept.user?.id).toBe(staying.id)
    expect(kept.tasks.map((task) => task.id)).toEqual([staysTask.id])
    expect(kept.comments.map((comment) => comment.id)).toEqual([stayingComment.id])
    expect(await findSession(db, stayingSession.token)).not.toBeNull()
  })

  test('an account without a password is confirmed with the typed phrase', async () => {
    const db = database()
    const user = await createUser(db, { password: null })
    await createTask(db, { userId: user.id })

    for (const confirmation of [undefined, '', 'delete', 'delete my acount']) {
      const error = await failure(deleteAccount(db, user.id, { confirmation }))
      expect(error).toBeInstanceOf(Invalid)
      expect(error.message).toBe('Type "delete my account" to confirm.')
      expect((error as Invalid).issues[0]?.path).toEqual(['confirmation'])
    }
    expect((await everythingOf(user.id)).user).toBeDefined()

    // Case and surrounding spaces do not matter.
    await deleteAccount(db, user.id, { confirmation: '  Delete My Account ' })
    expect(await everythingOf(user.id)).toMatchObject({ user: undefined, tasks: [] })
  })

  test('an unknown user is NotFound', async () => {
    expect(await failure(deleteAccount(database(), 'no-such-user', { password: 'x' }))).toBeInstanceOf(
      NotFound,
    )
  })
})
