import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { apiTokens, users } from '~/db/schema'
import { API_TOKEN_LIMITS } from '~/domain/api-tokens'
import { hashToken } from '~/utils/crypto.server'
import { createUser } from '../../tests/helpers/factories'
import {
  API_TOKEN_PREFIX,
  API_TOKEN_RATE_LIMIT,
  authenticateApiToken,
  createApiToken,
  listApiTokens,
  liveApiTokenIds,
  revokeApiToken,
  TOO_MANY_TOKENS,
} from './api-tokens.server'
import { Conflict, NotFound, RateLimited } from './errors'
import { toSessionUser } from './sessions.server'

const db = database()
const DAY = 24 * 60 * 60 * 1000

describe('personal API tokens', () => {
  test('a new token starts with tw_pat_, is high-entropy, and only its secret’s hash is stored', async () => {
    const ada = toSessionUser(await createUser(db))
    const { token, view } = await createApiToken(db, ada, { name: 'CI', scope: 'read', expiry: 'none' })
    expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true)
    expect(token).toHaveLength(API_TOKEN_PREFIX.length + 16 + 43)
    const other = await createApiToken(db, ada, { name: 'CI 2', scope: 'read', expiry: 'none' })
    expect(other.token).not.toBe(token)
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, view.id))
    expect(row?.secretHash).toBe(hashToken(token.slice(API_TOKEN_PREFIX.length + 16)))
    expect(JSON.stringify(row)).not.toContain(token.slice(API_TOKEN_PREFIX.length + 16))
    expect(view).toMatchObject({ name: 'CI', scope: 'read', expiresAt: null, lastUsedAt: null })
  })

  test('authenticates its person with its scope; a wrong secret, an unknown id or a malformed token nobody', async () => {
    const ada = toSessionUser(await createUser(db))
    const { token } = await createApiToken(db, ada, { name: 'Agent', scope: 'read-write', expiry: '30' })
    const grant = await authenticateApiToken(db, token)
    expect(grant).toMatchObject({ scope: 'read-write', user: { id: ada.id, email: ada.email } })
    const lastChar = token.at(-1) === 'A' ? 'B' : 'A'
    expect(await authenticateApiToken(db, token.slice(0, -1) + lastChar)).toBeNull()
    expect(await authenticateApiToken(db, `${API_TOKEN_PREFIX}${'x'.repeat(59)}`)).toBeNull()
    expect(await authenticateApiToken(db, token.slice(API_TOKEN_PREFIX.length))).toBeNull()
    expect(await authenticateApiToken(db, `${token}x`)).toBeNull()
  })

  test('expires after the days chosen; "none" never does', async () => {
    const ada = toSessionUser(await createUser(db))
    const now = new Date('2026-01-01T00:00:00Z')
    const { token, view } = await createApiToken(db, ada, { name: 'Month', scope: 'read', expiry: '30' }, now)
    expect(view.expiresAt?.getTime()).toBe(now.getTime() + 30 * DAY)
    expect(await authenticateApiToken(db, token, new Date(now.getTime() + 30 * DAY - 1000))).not.toBeNull()
    expect(await authenticateApiToken(db, token, new Date(now.getTime() + 30 * DAY))).toBeNull()
    const forever = await createApiToken(db, ada, { name: 'Forever', scope: 'read', expiry: 'none' }, now)
    expect(await authenticateApiToken(db, forever.token, new Date(now.getTime() + 3650 * DAY))).not.toBeNull()
  })

  test('a revoked token authenticates nobody at once; only its owner may revoke it', async () => {
    const ada = toSessionUser(await createUser(db))
    const eve = toSessionUser(await createUser(db))
    const { token, view } = await createApiToken(db, ada, { name: 'Gone', scope: 'read', expiry: 'none' })
    await expect(revokeApiToken(db, eve, view.id)).rejects.toBeInstanceOf(NotFound)
    expect(await authenticateApiToken(db, token)).not.toBeNull()
    await revokeApiToken(db, ada, view.id)
    expect(await authenticateApiToken(db, token)).toBeNull()
    expect(await listApiTokens(db, ada)).toEqual([])
  })

  test('a deleted account’s tokens authenticate nobody', async () => {
    const ada = toSessionUser(await createUser(db))
    const { token } = await createApiToken(db, ada, { name: 'Orphan', scope: 'read', expiry: 'none' })
    await db.delete(users).where(eq(users.id, ada.id))
    expect(await authenticateApiToken(db, token)).toBeNull()
  })

  test('a disabled account’s tokens authenticate nobody, streams included, until it is enabled again', async () => {
    const ada = toSessionUser(await createUser(db))
    const { token, view } = await createApiToken(db, ada, { name: 'Paused', scope: 'read', expiry: 'none' })
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, ada.id))
    expect(await authenticateApiToken(db, token)).toBeNull()
    expect(await liveApiTokenIds(db, [view.id])).toEqual(new Set())
    await db.update(users).set({ disabledAt: null }).where(eq(users.id, ada.id))
    expect((await authenticateApiToken(db, token))?.user.id).toBe(ada.id)
    expect(await liveApiTokenIds(db, [view.id])).toEqual(new Set([view.id]))
  })

  test(`at most ${API_TOKEN_LIMITS.perPerson} per person`, async () => {
    const ada = toSessionUser(await createUser(db))
    const bob = toSessionUser(await createUser(db))
    await Promise.all(
      Array.from({ length: API_TOKEN_LIMITS.perPerson }, (_, n) =>
        createApiToken(db, ada, { name: `T${n}`, scope: 'read', expiry: 'none' }),
      ),
    )
    const refused = createApiToken(db, ada, { name: 'One too many', scope: 'read', expiry: 'none' })
    await expect(refused).rejects.toBeInstanceOf(Conflict)
    await expect(refused).rejects.toThrow(TOO_MANY_TOKENS)
    expect(await listApiTokens(db, ada)).toHaveLength(API_TOKEN_LIMITS.perPerson)
    await expect(
      createApiToken(db, bob, { name: 'Mine', scope: 'read', expiry: 'none' }),
    ).resolves.toBeDefined()
  })

  test('"last used" is written on first use, then at most once a minute', async () => {
    const ada = toSessionUser(await createUser(db))
    const t0 = new Date('2026-02-01T10:00:00Z')
    const { token, view } = await createApiToken(db, ada, { name: 'Used', scope: 'read', expiry: 'none' }, t0)
    const lastUsed = async () =>
      (await listApiTokens(db, ada)).find((each) => each.id === view.id)?.lastUsedAt?.getTime()
    await authenticateApiToken(db, token, new Date(t0.getTime() + 1000))
    expect(await lastUsed()).toBe(t0.getTime() + 1000)
    await authenticateApiToken(db, token, new Date(t0.getTime() + 30_000))
    expect(await lastUsed()).toBe(t0.getTime() + 1000)
    await authenticateApiToken(db, token, new Date(t0.getTime() + 62_000))
    expect(await lastUsed()).toBe(t0.getTime() + 62_000)
  })

  // Six hundred round trips: on a sqld server (npm run test:sqld) they take longer than the default 5 s.
  test(`each token is limited to ${API_TOKEN_RATE_LIMIT.limit} requests a minute, with Retry-After`, async () => {
    const ada = toSessionUser(await createUser(db))
    const t0 = new Date('2026-03-01T10:00:00Z')
    const first = await createApiToken(db, ada, { name: 'Busy', scope: 'read', expiry: 'none' }, t0)
    const second = await createApiToken(db, ada, { name: 'Calm', scope: 'read', expiry: 'none' }, t0)
    for (let n = 0; n < API_TOKEN_RATE_LIMIT.limit; n++) await authenticateApiToken(db, first.token, t0)
    const refusal = await authenticateApiToken(db, first.token, new Date(t0.getTime() + 20_000)).catch(
      (e) => e,
    )
    expect(refusal).toBeInstanceOf(RateLimited)
    expect((refusal as RateLimited).retryAfter).toBe(40)
    expect(await authenticateApiToken(db, second.token, t0)).not.toBeNull()
    expect(await authenticateApiToken(db, first.token, new Date(t0.getTime() + 60_000))).not.toBeNull()
  }, 60_000)
})
