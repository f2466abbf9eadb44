import { randomBytes, randomInt } from 'node:crypto'
import { getTOTPAuthUri, verifyTOTP } from '@epic-web/totp'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { recoveryCodes, twoFactors, users } from '~/db/schema'
import { commit } from '~/db/write.server'
import { verifyPassword } from '~/utils/crypto.server'
import { keyedHash, seal, unseal } from '~/utils/secret-box.server'
import { Conflict, Invalid, NotFound, Unauthorized } from './errors'
import { countFailure, type RateLimitRule, refuseWhileLocked } from './rate-limit.server'
import { revokeOtherSessions } from './sessions.server'

/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238, as the apps expect it: SHA-1,
 * 6 digits, 30-second steps, a 160-bit secret) and one-time recovery codes. The HTML pages and
 * /api/auth both call these; neither holds a rule of its own. Why TOTP and how the secrets are
 * kept: docs/decisions/040-two-factor-sign-in.md.
 */

export const TOTP = { algorithm: 'SHA-1', digits: 6, period: 30 } as const
const RECOVERY_CODE_COUNT = 10
const ISSUER = 'Threadwork'
const MINUTE = 60_000

const TWO_FACTOR_LIMITS = {
  perAccount: {
    limit: 5,
    windowMs: 15 * MINUTE,
    message: 'Too many wrong codes for this account.',
  },
  perIp: { limit: 30, windowMs: 60 * MINUTE, message: 'Too many wrong codes from this network.' },
} satisfies Record<string, RateLimitRule>

const INVALID_CODE = 'That code is not valid. Codes work once; wait for the next one.'
const INVALID_RECOVERY_CODE = 'That recovery code is not valid or was already used.'
const WRONG_PASSWORD = 'Password is incorrect.'

/** What proves it is the person before two-factor changes: the password, or for accounts without one a code. */
/**
 * What a change to two-factor is proven with: the password, or for an account without one a
 * current code; and the address it came from, which wrong codes are counted against as at sign-in.
 */
export type Proof = { password?: string; code?: string; ip?: string | null }
type Client = { ip?: string | null }

export type TwoFactorStatus = { status: 'off' | 'pending' | 'on'; recoveryCodesLeft: number }

export async function twoFactorStatus(db: Database, userId: string): Promise<TwoFactorStatus> {
  const [row] = await db
    .select({ confirmedAt: twoFactors.confirmedAt })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId))
  if (!row) return { status: 'off', recoveryCodesLeft: 0 }
  const [left] = await db
    .select({ count: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return { status: row.confirmedAt ? 'on' : 'pending', recoveryCodesLeft: Number(left?.count ?? 0) }
}

/** True when sign-in must ask this person for a second factor. */
export async function isTwoFactorOn(db: Database, userId: string) {
  return (await twoFactorStatus(db, userId)).status === 'on'
}

/**
 * Starts setting up (or starts again, while unconfirmed): a new secret and a new set of recovery
 * codes. Nothing changes at sign-in until `confirmTwoFactor`. The secret and codes are returned
 * once, to be shown; only their sealed and hashed forms are kept.
 */
export async function beginTwoFactor(db: Database, userId: string, proof: Proof) {
  const user = await accountOf(db, userId)
  if ((await twoFactorStatus(db, userId)).status === 'on') {
    throw new Conflict('Two-factor sign-in is already on.')
  }
  await requirePassword(user, proof.password)
  const secret = newSecret()
  const codes = newRecoveryCodes()
  await commit(db, {
    setup: db
      .insert(twoFactors)
      .values({ userId, secret: seal(secret) })
      .onConflictDoUpdate({ target: twoFactors.userId, set: { secret: seal(secret), lastStep: null } }),
    ...recoveryCodeSteps(db, userId, codes),
  })
  return { secret, uri: otpauthUri(user.email, secret), recoveryCodes: codes }
}

/** The secret and its URI again, for the QR code while setting up (or for get-totp-uri), else null. */
export async function twoFactorSecret(db: Database, userId: string) {
  const [row] = await db
    .select({ secret: twoFactors.secret, email: users.email })
    .from(twoFactors)
    .innerJoin(users, eq(users.id, twoFactors.userId))
    .where(eq(twoFactors.userId, userId))
  const secret = row ? unseal(row.secret) : null
  if (!row || !secret) return null
  return { secret, uri: otpauthUri(row.email, secret) }
}

/** The otpauth URI again (better-auth's get-totp-uri), behind the password. */
export async function revealTwoFactorUri(db: Database, userId: string, proof: Proof) {
  await requirePassword(await accountOf(db, userId), proof.password)
  const found = await twoFactorSecret(db, userId)
  if (!found) throw new Conflict('Two-factor sign-in is not set up.')
  return found.uri
}

/**
 * Turns two-factor on with a current code from the app just set up, and ends every other session
 * (one signed in before the second factor existed should not outlive it).
 */
export async function confirmTwoFactor(db: Database, userId: string, code: string, keepSessionId: string) {
  if (!(await acceptTotp(db, userId, code))) throw new Invalid(INVALID_CODE, codeIssue(INVALID_CODE))
  await commit(db, {
    confirm: db.update(twoFactors).set({ confirmedAt: new Date() }).where(eq(twoFactors.userId, userId)),
    sessions: revokeOtherSessions(db, userId, keepSessionId),
  })
}

/**
 * The second step of a sign-in: a current code, or an unused recovery code. Wrong codes are
 * counted per account and per address; while either is spent even a right code is refused.
 */
export async function verifySecondFactor(
  db: Database,
  userId: string,
  input: { code: string; kind: 'totp' | 'recovery' },
  client: Client = {},
) {
  const accountKey = `two-factor:user:${userId}`
  const ipKey = `two-factor:ip:${client.ip ?? 'unknown'}`
  await refuseWhileLocked(db, accountKey, TWO_FACTOR_LIMITS.perAccount)
  await refuseWhileLocked(db, ipKey, TWO_FACTOR_LIMITS.perIp)
  if (!(await isTwoFactorOn(db, userId))) throw new Unauthorized('Two-factor sign-in is not on.')
  const isRight =
    input.kind === 'totp'
      ? await acceptTotp(db, userId, input.code)
      : await spendRecoveryCode(db, userId, input.code)
  if (isRight) return
  await countFailure(db, accountKey, TWO_FACTOR_LIMITS.perAccount)
  await countFailure(db, ipKey, TWO_FACTOR_LIMITS.perIp)
  const message = input.kind === 'totp' ? INVALID_CODE : INVALID_RECOVERY_CODE
  throw new Unauthorized(message)
}

/** A new set of recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(db: Database, userId: string, proof: Proof) {
  const user = await accountOf(db, userId)
  if ((await twoFactorStatus(db, userId)).status !== 'on') throw new Conflict('Two-factor sign-in is not on.')
  await requireProof(db, user, proof)
  const codes = newRecoveryCodes()
  await commit(db, recoveryCodeSteps(db, userId, codes))
  return codes
}

/** Turns two-factor off: the password, or for accounts without one a current code. */
export async function turnOffTwoFactor(db: Database, userId: string, proof: Proof) {
  const user = await accountOf(db, userId)
  if ((await twoFactorStatus(db, userId)).status === 'off')
    throw new Conflict('Two-factor sign-in is not on.')
  await requireProof(db, user, proof)
  await commit(db, {
    setup: db.delete(twoFactors).where(eq(twoFactors.userId, userId)),
    codes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
  })
}

// ── Codes ───────────────────────────────────────────────────────────────────

/**
 * A code of now or one step either side (clock drift), accepted once: the step it belongs to is
 * recorded in the same statement that checks it is later than the last one used, so a replay,
 * even a concurrent one, is refused.
 */
async function acceptTotp(db: Database, userId: string, code: string) {
  const found = await twoFactorSecret(db, userId)
  if (!found || !/^\d{6}$/.test(code)) return false
  const match = await verifyTOTP({ otp: code, secret: found.secret, ...TOTP, window: 1 })
  if (!match) return false
  const step = Math.floor(Date.now() / 1000 / TOTP.period) + match.delta
  const { used } = await commit(db, {
    used: db
      .update(twoFactors)
      .set({ lastStep: step })
      .where(
        and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastStep), lt(twoFactors.lastStep, step))),
      ),
  })
  return used.rowsAffected > 0
}

async function spendRecoveryCode(db: Database, userId: string, code: string) {
  const normal = normalizeRecoveryCode(code)
  if (normal.length !== 10) return false
  const { used } = await commit(db, {
    used: db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, keyedHash(normal)),
          isNull(recoveryCodes.usedAt),
        ),
      ),
  })
  return used.rowsAffected > 0
}

/** Codes are shown as `abcde-12345`; spaces, dashes and case do not matter when typed back. */
function normalizeRecoveryCode(code: string) {
  return code.toLowerCase().replace(/[^0-9a-z]/g, '')
}

// Crockford's base 32 without the letters people misread (i, l, o, u).
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

function newRecoveryCodes() {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(32)]).join('')
    return `${chars.slice(0, 5)}-${chars.slice(5)}`
  })
}

function recoveryCodeSteps(db: Database, userId: string, codes: string[]) {
  return {
    oldCodes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    newCodes: db
      .insert(recoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: keyedHash(normalizeRecoveryCode(code)) }))),
  }
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** 160 random bits in base 32 (RFC 4648), the form authenticator apps take. */
function newSecret() {
  const bytes = randomBytes(20)
  let bits = ''
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0')
  let secret = ''
  for (let index = 0; index < bits.length; index += 5)
    secret += BASE32[Number.parseInt(bits.slice(index, index + 5), 2)]
  return secret
}

function otpauthUri(email: string, secret: string) {
  return getTOTPAuthUri({ ...TOTP, secret, accountName: email, issuer: ISSUER })
}

// ── Proof ───────────────────────────────────────────────────────────────────

async function accountOf(db: Database, userId: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) throw new NotFound('Account not found.')
  return user
}

async function requirePassword(user: { passwordHash: string | null }, password: string | undefined) {
  if (!user.passwordHash) return
  if (!(await verifyPassword(password ?? '', user.passwordHash))) {
    throw new Invalid(WRONG_PASSWORD, [{ path: ['password'], message: WRONG_PASSWORD }])
  }
}

/** The password when the account has one; otherwise a current code (counted like a sign-in's). */
async function requireProof(db: Database, user: { id: string; passwordHash: string | null }, proof: Proof) {
  if (user.passwordHash) return requirePassword(user, proof.password)
  try {
    await verifySecondFactor(db, user.id, { code: proof.code ?? '', kind: 'totp' }, { ip: proof.ip })
  } catch (error) {
    if (error instanceof Unauthorized) throw new Invalid(INVALID_CODE, codeIssue(INVALID_CODE))
    throw error
  }
}

function codeIssue(message: string) {
  return [{ path: ['code'], message }]
}
