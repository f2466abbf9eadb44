import { createHmac, timingSafeEqual } from 'node:crypto'
import type { RouterContextProvider } from 'react-router'
import { database } from '~/db/client.server'
import { SIGN_IN_METHODS } from '~/domain/constants'
import { env } from '~/env.server'
import { Unauthorized } from '~/services/errors'
import { createSession } from '~/services/sessions.server'
import { rememberBrowser, type SignInMethod } from '~/services/sign-in-alerts.server'
import { isTwoFactorOn, verifySecondFactor } from '~/services/two-factor.server'
import { expireCookie, readCookie, serializeCookie } from '~/utils/cookies.server'
import { newToken } from '~/utils/crypto.server'
import { clientIp } from './client-ip.server'
import { sessionCookie } from './session-cookie.server'

/**
 * The one way a sign-in ends, whatever the way in (the password form, /api/auth, the GitHub and
 * Google callbacks, a passkey): `finishSignIn` decides between a session now and a second factor
 * first, and `finishSecondFactor` ends the second step. No way in checks two-factor itself
 * (docs/decisions/040-two-factor-sign-in.md).
 */

export type { SignInMethod }
export type SignInRequest = { request: Request; context: Readonly<RouterContextProvider> }

/** The pending second step: who, how, and where to go next; signed, 10 minutes, no session. */
export const TWO_FACTOR_COOKIE = 'tw_two_factor'
/** This browser's random id, for the new-sign-in e-mail (one per browser). */
export const DEVICE_COOKIE = 'tw_device'
const PENDING_TTL_MS = 10 * 60 * 1000
const DEVICE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
export const TWO_FACTOR_PATH = '/login/two-factor'

export type SignedIn = {
  isPending: false
  session: { id: string; token: string; expiresAt: Date }
  /** The cookies the answer must carry: the session's, the browser's id, the pending step's end. */
  setCookies: string[]
}
export type SecondFactorPending = { isPending: true; setCookies: string[] }

/**
 * Ends a first factor: a session for an account without two-factor (or for a passkey, which is
 * both factors), else the pending second step. `redirectTo` is where the second step goes on to.
 */
export async function finishSignIn(
  signIn: SignInRequest,
  userId: string,
  method: SignInMethod,
  options: { isNewAccount?: boolean; redirectTo?: string } = {},
): Promise<SignedIn | SecondFactorPending> {
  if (method !== 'passkey' && (await isTwoFactorOn(database(), userId))) {
    const pending = {
      userId,
      method,
      redirectTo: options.redirectTo ?? '',
      expiresAt: Date.now() + PENDING_TTL_MS,
    }
    return {
      isPending: true,
      setCookies: [
        serializeCookie(TWO_FACTOR_COOKIE, signPending(pending), { maxAgeSeconds: PENDING_TTL_MS / 1000 }),
      ],
    }
  }
  return startSession(signIn, userId, method, {
    isNewAccount: options.isNewAccount ?? false,
    isTwoFactor: false,
  })
}

/** The sign-in waiting for its second factor on this browser, or null (none, expired or forged). */
export function pendingSignIn(request: Request) {
  const value = readCookie(request.headers.get('Cookie'), TWO_FACTOR_COOKIE)
  const pending = value ? readPending(value) : null
  return pending && pending.expiresAt > Date.now() ? pending : null
}

/**
 * The second step: a current code or an unused recovery code for the pending sign-in, then its
 * session. Without a pending sign-in it is Unauthorized, like a wrong code.
 */
export async function finishSecondFactor(
  signIn: SignInRequest,
  input: { code: string; kind: 'totp' | 'recovery' },
) {
  const pending = pendingSignIn(signIn.request)
  if (!pending) throw new Unauthorized('Your sign-in expired. Sign in again.')
  await verifySecondFactor(database(), pending.userId, input, {
    ip: clientIp(signIn.request, signIn.context),
  })
  const signedIn = await startSession(signIn, pending.userId, pending.method, {
    isNewAccount: false,
    isTwoFactor: true,
  })
  signedIn.setCookies.push(expireCookie(TWO_FACTOR_COOKIE))
  return { ...signedIn, userId: pending.userId, redirectTo: pending.redirectTo }
}

async function startSession(
  signIn: SignInRequest,
  userId: string,
  method: SignInMethod,
  sign: { isNewAccount: boolean; isTwoFactor: boolean },
): Promise<SignedIn> {
  const db = database()
  const userAgent = signIn.request.headers.get('User-Agent')
  const session = await createSession(db, userId, {
    userAgent,
    ip: clientIp(signIn.request, signIn.context),
    method,
    isTwoFactor: sign.isTwoFactor,
  })
  const device = readCookie(signIn.request.headers.get('Cookie'), DEVICE_COOKIE) ?? newToken()
  try {
    await rememberBrowser(db, userId, device, { method, userAgent, ...sign })
  } catch (error) {
    // The alert is worth a log line, not a failed sign-in.
    console.error('Sign-in alert failed', error)
  }
  return {
    isPending: false,
    session,
    setCookies: [
      sessionCookie(session.token),
      serializeCookie(DEVICE_COOKIE, device, { maxAgeSeconds: DEVICE_MAX_AGE_SECONDS }),
    ],
  }
}

// ── The pending cookie ──────────────────────────────────────────────────────

type Pending = { userId: string; method: SignInMethod; redirectTo: string; expiresAt: number }

function signPending(pending: Pending) {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url')
  return `${payload}.${mac(payload)}`
}

function readPending(value: string): Pending | null {
  const [payload, signature] = value.split('.')
  if (!payload || !signature) return null
  const expected = Buffer.from(mac(payload))
  const actual = Buffer.from(signature)
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null
  try {
    const pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Pending
    const isWellFormed =
      typeof pending.userId === 'string' &&
      SIGN_IN_METHODS.includes(pending.method) &&
      typeof pending.redirectTo === 'string' &&
      typeof pending.expiresAt === 'number'
    return isWellFormed ? pending : null
  } catch {
    return null
  }
}

function mac(payload: string) {
  return createHmac('sha256', env().SESSION_SECRET).update(`two-factor:${payload}`).digest('base64url')
}
