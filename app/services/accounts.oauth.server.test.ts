import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { accounts, emailOutbox, users } from '~/db/schema'
import { createUser } from '../../tests/helpers/factories'
import { type OAuthProfile, signInWithOAuth } from './accounts.server'
import { Conflict, Invalid } from './errors'

/**
 * The OAuth linking rules: which account a provider identity opens. Each case reads the rows
 * back, because "not linked" and "no account created" are what protect the account's owner.
 */

let sequence = 0
function profile(overrides: Partial<OAuthProfile> = {}): OAuthProfile {
  sequence += 1
  return {
    provider: 'github',
    providerAccountId: `gh-${sequence}`,
    email: `oauth${sequence}@example.test`,
    emailVerified: true,
    name: `OAuth Person ${sequence}`,
    image: `https://avatars.example.test/${sequence}`,
    ...overrides,
  }
}

async function linksOf(userId: string) {
  return database()
    .select({ provider: accounts.provider, providerAccountId: accounts.providerAccountId })
    .from(accounts)
    .where(eq(accounts.userId, userId))
}

async function usersWithEmail(email: string) {
  return database().select().from(users).where(eq(users.email, email))
}

async function mailTo(email: string) {
  return database().select().from(emailOutbox).where(eq(emailOutbox.to, email))
}

describe('signInWithOAuth', () => {
  test('an existing link wins, whatever address the provider now reports', async () => {
    const db = database()
    const owner = await createUser(db)
    const linked = profile()
    await db
      .insert(accounts)
      .values({ userId: owner.id, provider: 'github', providerAccountId: linked.providerAccountId })

    const user = await signInWithOAuth(db, { ...linked, email: 'changed-at-github@example.test' })

    expect(user.id).toBe(owner.id)
    expect(await usersWithEmail('changed-at-github@example.test')).toEqual([])
    expect(await linksOf(owner.id)).toHaveLength(1)
  })

  test('a verified account is linked when the provider has verified the same address', async () => {
    const db = database()
    const owner = await createUser(db, { email: 'ada@example.test' })

    // Addresses compare case-insensitively, as they are stored.
    const first = await signInWithOAuth(
      db,
      profile({ providerAccountId: 'gh-ada', email: 'Ada@Example.TEST' }),
    )
    const again = await signInWithOAuth(
      db,
      profile({ providerAccountId: 'gh-ada', email: 'ada@example.test' }),
    )

    expect(first.id).toBe(owner.id)
    expect(again.id).toBe(owner.id)
    expect(await linksOf(owner.id)).toEqual([{ provider: 'github', providerAccountId: 'gh-ada' }])
    expect(await usersWithEmail('ada@example.test')).toHaveLength(1)
  })

  test('an account whose address was never verified is not handed over, even to a verified provider', async () => {
    const db = database()
    const squatted = await createUser(db, { email: 'grace@example.test', emailVerifiedAt: null })

    const attempt = signInWithOAuth(db, profile({ email: 'grace@example.test', emailVerified: true }))

    await expect(attempt).rejects.toBeInstanceOf(Conflict)
    await expect(attempt).rejects.toThrow(/never verified.*Forgot password/)
    expect(await linksOf(squatted.id)).toEqual([])
    const [row] = await usersWithEmail('grace@example.test')
    expect(row?.emailVerifiedAt).toBeNull()
  })

  test('an address the provider has not verified never opens an existing account', async () => {
    const db = database()
    const owner = await createUser(db, { email: 'linus@example.test' })

    const attempt = signInWithOAuth(
      db,
      profile({ provider: 'google', email: 'linus@example.test', emailVerified: false }),
    )

    await expect(attempt).rejects.toBeInstanceOf(Conflict)
    await expect(attempt).rejects.toThrow(/Google has not verified that address/)
    expect(await linksOf(owner.id)).toEqual([])
  })

  test('a new person with a provider-verified address gets a verified account, linked, and no verification e-mail', async () => {
    const db = database()
    const identity = profile({
      provider: 'google',
      providerAccountId: 'sub-new',
      email: 'New.Person@Example.test',
    })

    const user = await signInWithOAuth(db, identity)

    const [row] = await usersWithEmail('new.person@example.test')
    expect(row).toMatchObject({ id: user.id, name: identity.name, image: identity.image })
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date)
    expect(row?.passwordHash).toBeNull()
    expect(await linksOf(user.id)).toEqual([{ provider: 'google', providerAccountId: 'sub-new' }])
    expect(await mailTo('new.person@example.test')).toEqual([])
  })

  test('a new person with an unverified address gets an unverified account and a verification e-mail', async () => {
    const db = database()

    const user = await signInWithOAuth(db, profile({ email: 'unsure@example.test', emailVerified: false }))

    const [row] = await usersWithEmail('unsure@example.test')
    expect(row?.id).toBe(user.id)
    expect(row?.emailVerifiedAt).toBeNull()
    expect(await linksOf(user.id)).toHaveLength(1)
    const mail = await mailTo('unsure@example.test')
    expect(mail).toHaveLength(1)
    expect(mail[0]?.text).toContain('/email/verify-email?token=')
  })

  test('without a name from the provider, the address names the account', async () => {
    const user = await signInWithOAuth(database(), profile({ email: 'no.name@example.test', name: '' }))
    expect(user.name).toBe('no.name')
  })

  test.each([null, '', '   '])('no usable address (%j) is Invalid and creates nothing', async (email) => {
    const db = database()
    const identity = profile({ email })

    const attempt = signInWithOAuth(db, identity)

    await expect(attempt).rejects.toBeInstanceOf(Invalid)
    await expect(attempt).rejects.toThrow('Your GitHub account has no e-mail address we can use.')
    const links = await db
      .select()
      .from(accounts)
      .where(eq(accounts.providerAccountId, identity.providerAccountId))
    expect(links).toEqual([])
  })
})
