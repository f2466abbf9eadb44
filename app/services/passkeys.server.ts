import { randomBytes } from 'node:crypto'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { and, asc, eq, lt } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { passkeyChallenges, passkeys, users } from '~/db/schema'
import { commit } from '~/db/write.server'
import { PASSKEY_NAME_MAX } from '~/domain/constants'
import { env } from '~/env.server'
import { describeUserAgent } from '~/utils/user-agent'
import { RATE_LIMITS } from './accounts.server'
import { Conflict, Invalid, NotFound, Unauthorized } from './errors'
import { passkeyProviderName } from './passkey-providers'
import { consumeRateLimit, type RateLimitRule } from './rate-limit.server'
import type { SessionUser } from './session-user'
import { toSessionUser } from './sessions.server'

/**
 * Passkeys (WebAuthn, docs/decisions/041-passkeys.md): adding one to a signed-in account, signing
 * in with one, and the list a person keeps in /settings. A passkey proves both who the person is
 * and that they hold the device (user verification is required), so a sign-in with one needs no
 * second factor.
 *
 * Every ceremony is two requests: options, whose challenge is stored here, and the browser's
 * signed answer, which takes that challenge back out. A challenge is single use (taken whether
 * the answer verifies or not), lives five minutes, and is bound to the browser that asked (its
 * CSRF binding: the session, or the anonymous id of a visitor), so an answer to someone else's
 * challenge finds nothing.
 */

export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000

export const CHALLENGE_EXPIRED = 'This passkey request has expired or was already used. Try again.'
export const PASSKEY_NOT_VERIFIED = 'The passkey could not be verified. Try again.'
export const PASSKEY_UNKNOWN = 'This passkey is not registered with Threadwork. It may have been removed.'
export const PASSKEY_NOT_FOUND = 'That passkey was not found. It may have been removed already.'

const MINUTE = 60_000
/**
 * Each options request stores a challenge; this keeps one address from filling the table. A
 * sign-in page asks once for its autofill and once per click, so people never meet it.
 */
const CHALLENGES_PER_IP: RateLimitRule = {
  limit: 60,
  windowMs: 15 * MINUTE,
  message: 'Too many passkey requests. Try again later.',
}

/** The relying party: Threadwork as BASE_URL names it. The RP ID is its host name. */
export function relyingParty() {
  const base = new URL(env().BASE_URL)
  return { id: base.hostname, origin: base.origin, name: 'Threadwork' }
}

type Client = { ip?: string | null; userAgent?: string | null }

// ── Adding a passkey ────────────────────────────────────────────────────────

/** What `navigator.credentials.create()` needs to make a passkey for this person. */
export async function registrationOptions(
  db: Database,
  user: SessionUser,
  binding: string,
  client: Client = {},
  now = new Date(),
) {
  const existing = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
  const rp = relyingParty()
  const challenge = await storeChallenge(
    db,
    { ceremony: 'registration', binding, userId: user.id },
    client,
    now,
  )
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    // The user handle a discoverable passkey hands back at sign-in: the account's id.
    userID: new TextEncoder().encode(user.id),
    challenge,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The same authenticator twice would be two rows for one key.
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
  })
}

/** Verifies the browser's new credential against its challenge and keeps it. */
export async function addPasskey(
  db: Database,
  user: SessionUser,
  binding: string,
  response: RegistrationResponseJSON,
  client: Client = {},
  now = new Date(),
) {
  const challenge = await takeChallenge(db, response.response.clientDataJSON, {
    ceremony: 'registration',
    binding,
    userId: user.id,
    now,
  })
  const rp = relyingParty()
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => null)
  if (!verification?.verified) throw new Invalid(PASSKEY_NOT_VERIFIED)

  const { credential, aaguid, credentialBackedUp } = verification.registrationInfo
  const name = passkeyProviderName(aaguid) ?? `Passkey on ${describeUserAgent(client.userAgent)}`
  const { added } = await commit(db, {
    added: db
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(','),
        aaguid,
        name: name.slice(0, PASSKEY_NAME_MAX),
        isBackedUp: credentialBackedUp,
        createdAt: now,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning({ id: passkeys.id, name: passkeys.name }),
  })
  const [row] = added.rows
  if (!row) throw new Conflict('This passkey is already added.')
  return { id: String(row[passkeys.id.name]), name: String(row[passkeys.name.name]) }
}

// ── Signing in ──────────────────────────────────────────────────────────────

/**
 * What `navigator.credentials.get()` needs: a challenge and nothing else, so the browser offers
 * whichever of this site's passkeys the device holds (discoverable credentials, no e-mail asked).
 */
export async function signInOptions(db: Database, binding: string, client: Client = {}, now = new Date()) {
  const challenge = await storeChallenge(
    db,
    { ceremony: 'authentication', binding, userId: null },
    client,
    now,
  )
  return generateAuthenticationOptions({
    rpID: relyingParty().id,
    challenge,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    userVerification: 'required',
  })
}

/**
 * The person a passkey's signed answer proves, or Unauthorized: an unknown passkey (removed in
 * /settings, or its account deleted with it), a challenge not this browser's or spent, a bad
 * signature, a missing user verification, another origin or RP ID, or a counter that did not rise.
 */
export async function signInWithPasskey(
  db: Database,
  binding: string,
  response: AuthenticationResponseJSON,
  client: Client = {},
  now = new Date(),
): Promise<SessionUser> {
  await consumeRateLimit(db, `sign-in:ip:${client.ip ?? 'unknown'}`, RATE_LIMITS.signInPerIp, now.getTime())
  const challenge = await takeChallenge(db, response.response.clientDataJSON, {
    ceremony: 'authentication',
    binding,
    userId: null,
    now,
  })
  const [row] = await db
    .select({ passkey: passkeys, user: users })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, response.id))
    .limit(1)
  if (!row) throw new Unauthorized(PASSKEY_UNKNOWN)
  const { passkey, user } = row
  // A discoverable passkey names its account; it must be the one the credential was added to.
  const handle = response.response.userHandle
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== user.id) {
    throw new Unauthorized(PASSKEY_NOT_VERIFIED)
  }

  const rp = relyingParty()
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(passkey.publicKey),
      counter: passkey.counter,
      transports: transportsOf(passkey),
    },
    requireUserVerification: true,
  }).catch(() => null)
  if (!verification?.verified) throw new Unauthorized(PASSKEY_NOT_VERIFIED)

  // Conditional on the counter read above: of two answers racing with one counter, one wins.
  const { used } = await commit(db, {
    used: db
      .update(passkeys)
      .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
      .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter))),
  })
  if (used.rowsAffected === 0) throw new Unauthorized(PASSKEY_NOT_VERIFIED)
  return toSessionUser(user)
}

// ── The person's list ───────────────────────────────────────────────────────

export async function listPasskeys(db: Database, userId: string) {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      isBackedUp: passkeys.isBackedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt))
}

/** Renames one of the person's passkeys; another person's id is NotFound, as a missing one. */
export async function renamePasskey(db: Database, userId: string, passkeyId: string, name: string) {
  const { renamed } = await commit(db, {
    renamed: db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId))),
  })
  if (renamed.rowsAffected === 0) throw new NotFound(PASSKEY_NOT_FOUND)
}

/** Removes one of the person's passkeys: it signs nobody in from now on. */
export async function removePasskey(db: Database, userId: string, passkeyId: string) {
  const { removed } = await commit(db, {
    removed: db.delete(passkeys).where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId))),
  })
  if (removed.rowsAffected === 0) throw new NotFound(PASSKEY_NOT_FOUND)
}

/** Challenges past their five minutes, deleted by housekeeping (a verify refuses them anyway). */
export async function pruneExpiredPasskeyChallenges(db: Database, now = new Date()) {
  await commit(db, { expired: db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now)) })
}

// ── Challenges ──────────────────────────────────────────────────────────────

type Ceremony = (typeof passkeyChallenges.$inferSelect)['ceremony']

async function storeChallenge(
  db: Database,
  owner: { ceremony: Ceremony; binding: string; userId: string | null },
  client: Client,
  now: Date,
) {
  await consumeRateLimit(db, `passkey-options:ip:${client.ip ?? 'unknown'}`, CHALLENGES_PER_IP, now.getTime())
  const bytes = randomBytes(32)
  await commit(db, {
    challenge: db.insert(passkeyChallenges).values({
      challenge: bytes.toString('base64url'),
      ...owner,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    }),
  })
  // As bytes: the options carry them base64url-encoded, which is what the client data names.
  return new Uint8Array(bytes)
}

/**
 * Takes the challenge the browser's signed client data names out of the table, so it can never
 * be answered again, and answers it if it was this browser's, for this ceremony and still fresh.
 * The signature over it is checked after, by the verify call it is handed to.
 */
async function takeChallenge(
  db: Database,
  clientDataJSON: string,
  expected: { ceremony: Ceremony; binding: string; userId: string | null; now: Date },
) {
  const named = challengeIn(clientDataJSON)
  if (!named) throw new Invalid(PASSKEY_NOT_VERIFIED)
  const { taken } = await commit(db, {
    taken: db
      .delete(passkeyChallenges)
      .where(
        and(
          eq(passkeyChallenges.challenge, named),
          eq(passkeyChallenges.ceremony, expected.ceremony),
          eq(passkeyChallenges.binding, expected.binding),
        ),
      )
      .returning({ expiresAt: passkeyChallenges.expiresAt, userId: passkeyChallenges.userId }),
  })
  const [row] = taken.rows
  const isFresh = row && Number(row[passkeyChallenges.expiresAt.name]) > expected.now.getTime()
  if (!isFresh || (row[passkeyChallenges.userId.name] ?? null) !== expected.userId) {
    throw new Invalid(CHALLENGE_EXPIRED)
  }
  return named
}

function challengeIn(clientDataJSON: string): string | null {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))
    const challenge = (clientData as { challenge?: unknown }).challenge
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null
  } catch {
    return null
  }
}

function transportsOf(row: { transports: string }) {
  return row.transports ? row.transports.split(',') : undefined
}
