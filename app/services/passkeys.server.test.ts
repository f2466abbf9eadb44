import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { passkeyChallenges, passkeys, users } from '~/db/schema'
import { createUser } from '../../tests/helpers/factories'
import { type Bend, softwareAuthenticator } from '../../tests/helpers/passkey-authenticator'
import {
  addPasskey,
  CHALLENGE_EXPIRED,
  listPasskeys,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_VERIFIED,
  PASSKEY_UNKNOWN,
  pruneExpiredPasskeyChallenges,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
  signInOptions,
  signInWithPasskey,
} from './passkeys.server'
import { toSessionUser } from './sessions.server'

/**
 * Passkeys end to end at the service: real registration and assertion responses from a software
 * authenticator, checked by @simplewebauthn/server against challenges in the database.
 */

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

let ipSequence = 0
function nextClient() {
  ipSequence += 1
  return { ip: `192.0.2.${ipSequence}`, userAgent: CHROME_ON_LINUX }
}

/** A person with a session binding, a device of their own, and a passkey made on it. */
async function personWithPasskey(bend: Bend = {}) {
  const db = database()
  const row = await createUser(db)
  const user = toSessionUser(row)
  const binding = `session:${row.id}-browser`
  const device = softwareAuthenticator({ origin: relyingParty().origin })
  const client = nextClient()
  const options = await registrationOptions(db, user, binding, client)
  const passkey = await addPasskey(db, user, binding, device.create(options, bend), client)
  return { db, user, device, passkey }
}

/** A visitor's sign-in with the device: options for the visitor's browser, then the answer. */
async function signIn(device: ReturnType<typeof softwareAuthenticator>, bend: Bend = {}, at?: Date) {
  const db = database()
  const binding = `anonymous:${Math.random()}`
  const client = nextClient()
  const options = await signInOptions(db, binding, client)
  const answer = device.get(options, bend)
  return { answer, binding, result: signInWithPasskey(db, binding, answer, client, at) }
}

describe('adding a passkey', () => {
  test('asks for a discoverable credential with user verification, for this RP, excluding passkeys already added', async () => {
    const { db, user, device } = await personWithPasskey()
    const options = await registrationOptions(db, user, 'session:x', nextClient())
    expect(options.rp).toEqual({ id: 'localhost', name: 'Threadwork' })
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    })
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual([
      ...device.credentials.keys(),
    ])
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user.id)
  })

  test('keeps the key, named from the browser, listed with when it was added', async () => {
    const { db, user, passkey } = await personWithPasskey()
    expect(passkey.name).toBe('Passkey on Chrome on Linux')
    const listed = await listPasskeys(db, user.id)
    expect(listed).toEqual([
      expect.objectContaining({ id: passkey.id, name: 'Passkey on Chrome on Linux', lastUsedAt: null }),
    ])
    expect(listed[0]?.createdAt).toBeInstanceOf(Date)
  })

  test('refuses an answer from another origin or for another RP ID, and one without user verification', async () => {
    const db = database()
    const user = toSessionUser(await createUser(db))
    const device = softwareAuthenticator({ origin: relyingParty().origin })
    for (const bend of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { isUserVerified: false },
    ] satisfies Bend[]) {
      const options = await registrationOptions(db, user, 'session:a', nextClient())
      await expect(addPasskey(db, user, 'session:a', device.create(options, bend))).rejects.toThrow(
        PASSKEY_NOT_VERIFIED,
      )
    }
    expect(await listPasskeys(db, user.id)).toEqual([])
  })

  test("refuses an answer to another person's or another browser's challenge", async () => {
    const db = database()
    const ada = toSessionUser(await createUser(db))
    const grace = toSessionUser(await createUser(db))
    const device = softwareAuthenticator({ origin: relyingParty().origin })
    const options = await registrationOptions(db, ada, 'session:ada', nextClient())
    await expect(addPasskey(db, grace, 'session:ada', device.create(options))).rejects.toThrow(
      CHALLENGE_EXPIRED,
    )
    const again = await registrationOptions(db, ada, 'session:ada', nextClient())
    await expect(addPasskey(db, ada, 'session:other', device.create(again))).rejects.toThrow(
      CHALLENGE_EXPIRED,
    )
  })
})

describe('signing in with a passkey', () => {
  test('proves the person, and records the counter and when it was used', async () => {
    const { db, user, device, passkey } = await personWithPasskey()
    const { result } = await signIn(device)
    expect(await result).toEqual(user)
    const [row] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id))
    expect(row?.counter).toBe(1)
    expect(row?.lastUsedAt).toBeInstanceOf(Date)
  })

  test('a challenge answers once: the same answer again is refused', async () => {
    const { db, device } = await personWithPasskey()
    const { answer, binding, result } = await signIn(device)
    await result
    await expect(signInWithPasskey(db, binding, answer, nextClient())).rejects.toThrow(CHALLENGE_EXPIRED)
  })

  test('a refused answer spends its challenge too', async () => {
    const { db, device } = await personWithPasskey()
    const { answer, binding, result } = await signIn(device, { origin: 'https://evil.example' })
    await expect(result).rejects.toThrow(PASSKEY_NOT_VERIFIED)
    await expect(signInWithPasskey(db, binding, answer, nextClient())).rejects.toThrow(CHALLENGE_EXPIRED)
  })

  test('a challenge expires after five minutes', async () => {
    const { db, device } = await personWithPasskey()
    const late = new Date(Date.now() + PASSKEY_CHALLENGE_TTL_MS + 1000)
    const { result } = await signIn(device, {}, late)
    await expect(result).rejects.toThrow(CHALLENGE_EXPIRED)
    // and housekeeping deletes what expired
    await signInOptions(db, 'anonymous:left', nextClient())
    await pruneExpiredPasskeyChallenges(db, late)
    expect(
      await db.select().from(passkeyChallenges).where(eq(passkeyChallenges.binding, 'anonymous:left')),
    ).toEqual([])
  })

  test("another browser's challenge is refused", async () => {
    const { db, device } = await personWithPasskey()
    const options = await signInOptions(db, 'anonymous:asked', nextClient())
    await expect(signInWithPasskey(db, 'anonymous:other', device.get(options), nextClient())).rejects.toThrow(
      CHALLENGE_EXPIRED,
    )
  })

  test('a counter that does not rise is refused (a cloned authenticator)', async () => {
    const { device } = await personWithPasskey()
    await (await signIn(device)).result // counter 1
    await expect((await signIn(device, { counter: 1 })).result).rejects.toThrow(PASSKEY_NOT_VERIFIED)
    await expect((await signIn(device, { counter: 0 })).result).rejects.toThrow(PASSKEY_NOT_VERIFIED)
    await expect((await signIn(device, { counter: 5 })).result).resolves.toBeDefined()
  })

  test('another origin, another RP ID or no user verification is refused', async () => {
    const { device } = await personWithPasskey()
    for (const bend of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:3001' },
      { rpId: 'evil.example' },
      { isUserVerified: false },
    ] satisfies Bend[]) {
      await expect((await signIn(device, bend)).result).rejects.toThrow(PASSKEY_NOT_VERIFIED)
    }
  })

  test('a passkey removed in settings signs nobody in', async () => {
    const { db, user, device, passkey } = await personWithPasskey()
    await removePasskey(db, user.id, passkey.id)
    await expect((await signIn(device)).result).rejects.toThrow(PASSKEY_UNKNOWN)
  })

  test("a deleted account's passkey signs nobody in", async () => {
    const { db, user, device } = await personWithPasskey()
    await db.delete(users).where(eq(users.id, user.id))
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([])
    await expect((await signIn(device)).result).rejects.toThrow(PASSKEY_UNKNOWN)
  })
})

describe('the list in settings', () => {
  test("renames and removes one's own passkeys only", async () => {
    const { db, user, passkey } = await personWithPasskey()
    const other = await createUser(db)
    await expect(renamePasskey(db, other.id, passkey.id, 'Mine now')).rejects.toThrow(PASSKEY_NOT_FOUND)
    await expect(removePasskey(db, other.id, passkey.id)).rejects.toThrow(PASSKEY_NOT_FOUND)
    await renamePasskey(db, user.id, passkey.id, 'Work laptop')
    expect((await listPasskeys(db, user.id)).map((row) => row.name)).toEqual(['Work laptop'])
    await removePasskey(db, user.id, passkey.id)
    expect(await listPasskeys(db, user.id)).toEqual([])
    await expect(removePasskey(db, user.id, passkey.id)).rejects.toThrow(PASSKEY_NOT_FOUND)
  })
})
