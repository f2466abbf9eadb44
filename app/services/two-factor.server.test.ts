import { readFileSync } from 'node:fs'
import { generateTOTP } from '@epic-web/totp'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { rateLimits, recoveryCodes, sessions, twoFactors } from '~/db/schema'
import { client } from '../../tests/helpers/account-service'
import { createUser, TEST_PASSWORD } from '../../tests/helpers/factories'
import { failure } from '../../tests/helpers/failure'
import { Conflict, Invalid, RateLimited, Unauthorized } from './errors'
import { createSession } from './sessions.server'
import {
  beginTwoFactor,
  confirmTwoFactor,
  isTwoFactorOn,
  regenerateRecoveryCodes,
  TOTP,
  turnOffTwoFactor,
  twoFactorSecret,
  twoFactorStatus,
  verifySecondFactor,
} from './two-factor.server'

/**
 * The two-factor service: setting up and confirming, codes that work once and only within one
 * step of now, recovery codes, the lockouts, and secrets that never sit in the database in clear.
 */

afterEach(() => {
  vi.useRealTimers()
})

const STEP_MS = TOTP.period * 1000

/** The error a call failed with, or undefined when it succeeded. */
async function outcome(promise: Promise<unknown>) {
  try {
    await promise
    return undefined
  } catch (error) {
    return error
  }
}

async function codeAt(secret: string, at: number) {
  vi.useFakeTimers({ toFake: ['Date'], now: at })
  const { otp } = await generateTOTP({ ...TOTP, secret })
  vi.useRealTimers()
  return otp
}

/** A person with two-factor on, and the secret their app holds. */
async function personWithTwoFactor() {
  const db = database()
  const user = await createUser(db)
  const setup = await beginTwoFactor(db, user.id, { password: TEST_PASSWORD })
  // Confirmed with the previous step's code, so the current one is still unused for the test.
  const { id } = await createSession(db, user.id)
  await confirmTwoFactor(db, user.id, await codeAt(setup.secret, Date.now() - STEP_MS), id)
  return { user, ...setup }
}

describe('setting up', () => {
  test('a 160-bit base-32 secret as apps expect it, 10 codes, and sign-in unchanged until confirmed', async () => {
    const db = database()
    const user = await createUser(db)

    const setup = await beginTwoFactor(db, user.id, { password: TEST_PASSWORD })

    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/)
    const uri = new URL(setup.uri)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.searchParams.get('secret')).toBe(setup.secret)
    expect(uri.searchParams.get('algorithm')).toBe('SHA1')
    expect(uri.searchParams.get('digits')).toBe('6')
    expect(uri.searchParams.get('period')).toBe('30')
    expect(uri.searchParams.get('issuer')).toBe('Threadwork')
    expect(setup.recoveryCodes).toHaveLength(10)
    expect(new Set(setup.recoveryCodes).size).toBe(10)
    expect(await isTwoFactorOn(db, user.id)).toBe(false)
    expect(await twoFactorStatus(db, user.id)).toEqual({ status: 'pending', recoveryCodesLeft: 10 })
  })

  test('needs the password of an account that has one', async () => {
    const db = database()
    const user = await createUser(db)
    expect(await failure(beginTwoFactor(db, user.id, { password: 'wrong' }))).toBeInstanceOf(Invalid)
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ status: 'off' })
  })

  test('confirming with a wrong code leaves it off; a right one turns it on and ends every other session', async () => {
    const db = database()
    const user = await createUser(db)
    const setup = await beginTwoFactor(db, user.id, { password: TEST_PASSWORD })
    const current = await createSession(db, user.id)
    await createSession(db, user.id)

    expect(await failure(confirmTwoFactor(db, user.id, '000000', current.id))).toBeInstanceOf(Invalid)
    expect(await isTwoFactorOn(db, user.id)).toBe(false)

    await confirmTwoFactor(db, user.id, await codeAt(setup.secret, Date.now()), current.id)
    expect(await isTwoFactorOn(db, user.id)).toBe(true)
    const left = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))
    expect(left).toEqual([{ id: current.id }])
    expect(await failure(beginTwoFactor(db, user.id, { password: TEST_PASSWORD }))).toBeInstanceOf(Conflict)
  })

  test('the secret is sealed in the table and the database file holds neither it nor a recovery code', async () => {
    const db = database()
    const { user, secret, recoveryCodes: codes } = await personWithTwoFactor()
    const [row] = await db.select().from(twoFactors).where(eq(twoFactors.userId, user.id))
    expect(row?.secret).toMatch(/^v1\./)
    expect(row?.secret).not.toContain(secret)
    expect((await twoFactorSecret(db, user.id))?.secret).toBe(secret)

    const file = process.env.DATABASE_URL?.startsWith('file:') ? process.env.DATABASE_URL.slice(5) : null
    if (!file) return
    // The WAL holds the newest pages; read both.
    const bytes = [file, `${file}-wal`].map((path) => {
      try {
        return readFileSync(path).toString('latin1')
      } catch {
        return ''
      }
    })
    const whole = bytes.join('')
    expect(whole).toContain(user.email)
    expect(whole).not.toContain(secret)
    for (const code of codes) {
      expect(whole).not.toContain(code)
      expect(whole).not.toContain(code.replace('-', ''))
    }
  })
})

describe('the second step of a sign-in', () => {
  test('a current code works once: the same code again in its window is refused', async () => {
    const db = database()
    const { user, secret } = await personWithTwoFactor()
    const code = await codeAt(secret, Date.now())

    await verifySecondFactor(db, user.id, { code, kind: 'totp' }, client())
    expect(await failure(verifySecondFactor(db, user.id, { code, kind: 'totp' }, client()))).toBeInstanceOf(
      Unauthorized,
    )
  })

  test('codes one step either side of now are accepted, two steps are not', async () => {
    const db = database()
    const start = Date.now()
    for (const [offset, isAccepted] of [
      [-2, false],
      [2, false],
      [-1, true],
      [1, true],
    ] as const) {
      const { user, secret } = await personWithTwoFactor()
      // The setup used the step before now; a fresh person each time keeps replay out of it.
      await db.update(twoFactors).set({ lastStep: null }).where(eq(twoFactors.userId, user.id))
      const code = await codeAt(secret, start + offset * STEP_MS)
      const answer = await outcome(verifySecondFactor(db, user.id, { code, kind: 'totp' }, client()))
      if (isAccepted) expect(answer, `offset ${offset}`).toBeUndefined()
      else expect(answer, `offset ${offset}`).toBeInstanceOf(Unauthorized)
    }
  })

  test('an older code than the last one used is refused, even if still inside the drift window', async () => {
    const db = database()
    const { user, secret } = await personWithTwoFactor()
    await verifySecondFactor(db, user.id, { code: await codeAt(secret, Date.now()), kind: 'totp' }, client())
    const earlier = await codeAt(secret, Date.now() - STEP_MS)
    expect(
      await failure(verifySecondFactor(db, user.id, { code: earlier, kind: 'totp' }, client())),
    ).toBeInstanceOf(Unauthorized)
  })

  test('a recovery code works once, typed in any case and without its dash', async () => {
    const db = database()
    const { user, recoveryCodes: codes } = await personWithTwoFactor()
    const code = codes[0] ?? ''

    await verifySecondFactor(
      db,
      user.id,
      { code: code.toUpperCase().replace('-', ' '), kind: 'recovery' },
      client(),
    )
    expect(
      await failure(verifySecondFactor(db, user.id, { code, kind: 'recovery' }, client())),
    ).toBeInstanceOf(Unauthorized)
    expect(await twoFactorStatus(db, user.id)).toEqual({ status: 'on', recoveryCodesLeft: 9 })
  })

  test('five wrong codes lock the account for 15 minutes: a right code is refused meanwhile', async () => {
    const db = database()
    const { user, secret } = await personWithTwoFactor()
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        await failure(verifySecondFactor(db, user.id, { code: '000000', kind: 'totp' }, client())),
      ).toBeInstanceOf(Unauthorized)
    }
    const right = await codeAt(secret, Date.now())
    const locked = await failure(verifySecondFactor(db, user.id, { code: right, kind: 'totp' }, client()))
    expect(locked).toBeInstanceOf(RateLimited)
    expect((locked as RateLimited).retryAfter).toBeGreaterThan(14 * 60)
    expect((locked as RateLimited).retryAfter).toBeLessThanOrEqual(15 * 60)

    // Sixteen minutes on, the same right code works.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60_000 })
    await db.update(twoFactors).set({ lastStep: null }).where(eq(twoFactors.userId, user.id))
    const later = await generateTOTP({ ...TOTP, secret })
    expect(
      await outcome(verifySecondFactor(db, user.id, { code: later.otp, kind: 'totp' }, client())),
    ).toBeUndefined()
  })

  test('an address gets 30 wrong codes an hour across accounts', async () => {
    const db = database()
    const address = client()
    for (let account = 0; account < 8; account++) {
      const { user } = await personWithTwoFactor()
      for (let attempt = 0; attempt < 4; attempt++) {
        const answer = await failure(
          verifySecondFactor(db, user.id, { code: '000000', kind: 'totp' }, address),
        )
        const isPastLimit = account * 4 + attempt >= 30
        expect(answer).toBeInstanceOf(isPastLimit ? RateLimited : Unauthorized)
      }
    }
  })
})

describe('recovery codes and turning off', () => {
  test('regenerating replaces every code: the old ones stop working', async () => {
    const db = database()
    const { user, recoveryCodes: old } = await personWithTwoFactor()

    const fresh = await regenerateRecoveryCodes(db, user.id, { password: TEST_PASSWORD })

    expect(fresh).toHaveLength(10)
    expect(fresh.some((code) => old.includes(code))).toBe(false)
    expect(
      await failure(verifySecondFactor(db, user.id, { code: old[0] ?? '', kind: 'recovery' }, client())),
    ).toBeInstanceOf(Unauthorized)
    await verifySecondFactor(db, user.id, { code: fresh[0] ?? '', kind: 'recovery' }, client())
  })

  test('turning off needs the password, then sign-in asks for nothing more', async () => {
    const db = database()
    const { user } = await personWithTwoFactor()
    expect(await failure(turnOffTwoFactor(db, user.id, { password: 'wrong' }))).toBeInstanceOf(Invalid)
    expect(await isTwoFactorOn(db, user.id)).toBe(true)

    await turnOffTwoFactor(db, user.id, { password: TEST_PASSWORD })

    expect(await twoFactorStatus(db, user.id)).toEqual({ status: 'off', recoveryCodesLeft: 0 })
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([])
  })

  test('an account without a password turns it off with a current code', async () => {
    const db = database()
    const user = await createUser(db, { password: null })
    const setup = await beginTwoFactor(db, user.id, {})
    const { id } = await createSession(db, user.id)
    await confirmTwoFactor(db, user.id, await codeAt(setup.secret, Date.now() - STEP_MS), id)

    // An address of its own: a sqld server is shared by the test files, and 250 addresses collided.
    const ip = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`
    expect(await failure(turnOffTwoFactor(db, user.id, { code: '000000', ip }))).toBeInstanceOf(Invalid)
    // The wrong code counts against the address it came from, as at sign-in — not a shared bucket.
    const [counted] = await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `two-factor:ip:${ip}`))
    expect(counted?.count).toBe(1)
    await turnOffTwoFactor(db, user.id, { code: await codeAt(setup.secret, Date.now()), ip })
    expect(await isTwoFactorOn(db, user.id)).toBe(false)
  })
})
