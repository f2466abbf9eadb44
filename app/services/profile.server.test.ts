import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { accounts, chatMessages, chats, commentReactions, comments, sessions, tasks } from '~/db/schema'
import { createSession, findSession } from '~/services/sessions.server'
import { verifyPassword } from '~/utils/crypto.server'
import { client, outboxTo, REAL_SCRYPT, userRow } from '../../tests/helpers/account-service'
import {
  addReaction,
  createComment,
  createTask,
  createUser,
  TEST_PASSWORD,
} from '../../tests/helpers/factories'
import { failure } from '../../tests/helpers/failure'
import { signInWithPassword } from './accounts.server'
import { Forbidden, Invalid, NotFound } from './errors'
import { changePassword, deleteAccount, getAccount, updateProfile } from './profile.server'

/** A signed-in person's own account: profile, password, deletion, against the real database. */

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
