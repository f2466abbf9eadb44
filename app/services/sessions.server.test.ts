import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { sessions, users } from '~/db/schema'
import { hashToken } from '~/utils/crypto.server'
import { createUser } from '../../tests/helpers/factories'
import {
  createSession,
  findSession,
  listSessions,
  liveSessionIds,
  pruneExpiredSessions,
  revokeAllSessions,
  revokeOtherSessions,
  revokeSession,
  SESSION_MAX_AGE_MS,
} from './sessions.server'

/**
 * Sessions as the table holds them: only a hash of the cookie's secret, a 30-day life that slides
 * forward with use, and revocation that never reaches another person's sessions.
 */

const DAY = 24 * 60 * 60 * 1000
const MINUTE = 60 * 1000

async function rowsOf(userId: string) {
  return database().select().from(sessions).where(eq(sessions.userId, userId))
}

describe('createSession', () => {
  test('stores only a hash of the token: the raw token is nowhere in the table', async () => {
    const db = database()
    const user = await createUser(db)
    const created = await createSession(db, user.id, { userAgent: 'Firefox', ip: '203.0.113.9' })

    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(created.id).toBe(hashToken(created.token))
    const [row] = await rowsOf(user.id)
    expect(row).toMatchObject({ id: created.id, userAgent: 'Firefox', ip: '203.0.113.9' })
    expect(JSON.stringify(row)).not.toContain(created.token)
    // Every column of every row: nothing holds the cookie's value.
    const everything = await db.$client.execute('SELECT * FROM sessions')
    expect(JSON.stringify(everything.rows)).not.toContain(created.token)
  })

  test('lasts 30 days from its start', async () => {
    const db = database()
    const user = await createUser(db)
    const now = new Date('2030-01-01T00:00:00Z')
    const created = await createSession(db, user.id, {}, now)
    expect(created.expiresAt.getTime()).toBe(now.getTime() + 30 * DAY)
    expect((await rowsOf(user.id))[0]?.expiresAt).toEqual(created.expiresAt)
  })

  test('two sessions never share a token', async () => {
    const db = database()
    const user = await createUser(db)
    const [a, b] = await Promise.all([createSession(db, user.id), createSession(db, user.id)])
    expect(a.token).not.toBe(b.token)
  })

  test('keeps at most 400 characters of a User-Agent', async () => {
    const db = database()
    const user = await createUser(db)
    await createSession(db, user.id, { userAgent: 'x'.repeat(5000) })
    expect((await rowsOf(user.id))[0]?.userAgent).toHaveLength(400)
  })
})

describe('findSession', () => {
  test('finds the session and its user by the cookie token', async () => {
    const db = database()
    const user = await createUser(db, { name: 'Ada', emailVerifiedAt: null })
    const created = await createSession(db, user.id)

    const found = await findSession(db, created.token)

    expect(found).toMatchObject({
      id: created.id,
      isRenewed: false,
      user: { id: user.id, name: 'Ada', email: user.email, image: null, emailVerified: false },
    })
  })

  test('an unknown token, or the stored hash used as a token, finds nothing', async () => {
    const db = database()
    const user = await createUser(db)
    const created = await createSession(db, user.id)
    expect(await findSession(db, 'not-a-session')).toBeNull()
    // A leaked table must not be replayable as cookies.
    expect(await findSession(db, created.id)).toBeNull()
  })

  test('an expired session is gone', async () => {
    const db = database()
    const user = await createUser(db)
    const start = new Date('2030-01-01T00:00:00Z')
    // Each check on its own session: finding one renews it.
    const at = async (ms: number) =>
      findSession(db, (await createSession(db, user.id, {}, start)).token, new Date(start.getTime() + ms))

    expect(await at(30 * DAY - 1)).not.toBeNull()
    expect(await at(30 * DAY)).toBeNull()
    expect(await at(31 * DAY)).toBeNull()
  })

  test('a session of a deleted user is gone with the user', async () => {
    const db = database()
    const user = await createUser(db)
    const created = await createSession(db, user.id)
    await db.delete(users).where(eq(users.id, user.id))
    expect(await findSession(db, created.token)).toBeNull()
  })

  test('a session used within its first day is not renewed (no cookie to resend)', async () => {
    const db = database()
    const user = await createUser(db)
    const start = new Date('2030-01-01T00:00:00Z')
    const created = await createSession(db, user.id, {}, start)

    const found = await findSession(db, created.token, new Date(start.getTime() + 23 * 60 * MINUTE))

    expect(found?.isRenewed).toBe(false)
    expect(found?.expiresAt).toEqual(created.expiresAt)
    expect((await rowsOf(user.id))[0]?.expiresAt).toEqual(created.expiresAt)
  })

  test('sliding renewal: less than 29 days left → pushed back to 30 days, and marked renewed', async () => {
    const db = database()
    const user = await createUser(db)
    const start = new Date('2030-01-01T00:00:00Z')
    const created = await createSession(db, user.id, {}, start)
    const later = new Date(start.getTime() + 2 * DAY)

    const found = await findSession(db, created.token, later)

    expect(found?.isRenewed).toBe(true)
    expect(found?.expiresAt.getTime()).toBe(later.getTime() + SESSION_MAX_AGE_MS)
    expect(found?.lastSeenAt).toEqual(later)
    const [row] = await rowsOf(user.id)
    expect(row?.expiresAt.getTime()).toBe(later.getTime() + 30 * DAY)
    expect(row?.lastSeenAt).toEqual(later)

    // Renewed, the session now outlives its first 30 days.
    const beyond = new Date(start.getTime() + 31 * DAY)
    expect(await findSession(db, created.token, beyond)).not.toBeNull()
  })

  test('"last seen" is written once a minute at most, not on every request', async () => {
    const db = database()
    const user = await createUser(db)
    const start = new Date('2030-01-01T00:00:00Z')
    const created = await createSession(db, user.id, {}, start)

    await findSession(db, created.token, new Date(start.getTime() + 59_000))
    expect((await rowsOf(user.id))[0]?.lastSeenAt).toEqual(start)

    const seen = new Date(start.getTime() + 61_000)
    const found = await findSession(db, created.token, seen)
    expect(found?.lastSeenAt).toEqual(seen)
    expect(found?.isRenewed).toBe(false)
    expect((await rowsOf(user.id))[0]?.lastSeenAt).toEqual(seen)
  })
})

describe('listing and revoking', () => {
  test("listSessions shows a user's live sessions only", async () => {
    const db = database()
    const [ada, grace] = [await createUser(db), await createUser(db)]
    const now = new Date('2030-02-01T00:00:00Z')
    const live = await createSession(db, ada.id, { userAgent: 'Safari' }, now)
    await createSession(db, ada.id, {}, new Date(now.getTime() - 31 * DAY))
    await createSession(db, grace.id, {}, now)

    const listed = await listSessions(db, ada.id, now)

    expect(listed.map((session) => session.id)).toEqual([live.id])
    expect(listed[0]).toMatchObject({ userAgent: 'Safari', createdAt: now, lastSeenAt: now })
  })

  test('revokeSession ends one of the owner’s sessions, and nobody else’s', async () => {
    const db = database()
    const [ada, mallory] = [await createUser(db), await createUser(db)]
    const phone = await createSession(db, ada.id)
    const laptop = await createSession(db, ada.id)

    // Mallory knows the id (it is what the API shows) but it is not his session.
    expect(await revokeSession(db, mallory.id, phone.id)).toBe(false)
    expect(await findSession(db, phone.token)).not.toBeNull()

    expect(await revokeSession(db, ada.id, phone.id)).toBe(true)
    expect(await findSession(db, phone.token)).toBeNull()
    expect(await findSession(db, laptop.token)).not.toBeNull()
    expect(await revokeSession(db, ada.id, phone.id)).toBe(false)
  })

  test('revokeOtherSessions keeps the current one and leaves other users alone', async () => {
    const db = database()
    const [ada, grace] = [await createUser(db), await createUser(db)]
    const current = await createSession(db, ada.id)
    await createSession(db, ada.id)
    await createSession(db, ada.id)
    const graces = await createSession(db, grace.id)

    await revokeOtherSessions(db, ada.id, current.id)

    expect((await rowsOf(ada.id)).map((row) => row.id)).toEqual([current.id])
    expect(await findSession(db, graces.token)).not.toBeNull()
  })

  test('revokeAllSessions ends every session of the user, and only theirs', async () => {
    const db = database()
    const [ada, grace] = [await createUser(db), await createUser(db)]
    await createSession(db, ada.id)
    await createSession(db, ada.id)
    const graces = await createSession(db, grace.id)

    await revokeAllSessions(db, ada.id)

    expect(await rowsOf(ada.id)).toEqual([])
    expect(await findSession(db, graces.token)).not.toBeNull()
  })

  test('liveSessionIds keeps the live ones among any number of ids, leaving out revoked and expired', async () => {
    const db = database()
    const user = await createUser(db)
    const now = new Date('2030-04-01T00:00:00Z')
    const [first, revoked, expired, last] = [
      await createSession(db, user.id, {}, now),
      await createSession(db, user.id, {}, now),
      await createSession(db, user.id, {}, new Date(now.getTime() - 31 * DAY)),
      await createSession(db, user.id, {}, now),
    ]
    await revokeSession(db, user.id, revoked.id)
    // More ids than one query binds: the live ones are found in every slice.
    const unknown = Array.from({ length: 1200 }, (_, index) => hashToken(`unknown-${index}`))
    const ids = [first.id, ...unknown, revoked.id, expired.id, last.id]

    expect(await liveSessionIds(db, ids, now)).toEqual(new Set([first.id, last.id]))
    expect(await liveSessionIds(db, [], now)).toEqual(new Set())
  })

  test('pruneExpiredSessions drops only the expired rows', async () => {
    const db = database()
    const user = await createUser(db)
    const now = new Date('2030-03-01T00:00:00Z')
    const live = await createSession(db, user.id, {}, now)
    await createSession(db, user.id, {}, new Date(now.getTime() - 40 * DAY))

    await pruneExpiredSessions(db, now)

    expect((await rowsOf(user.id)).map((row) => row.id)).toEqual([live.id])
  })
})
