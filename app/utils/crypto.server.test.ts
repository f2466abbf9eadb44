import { describe, expect, test } from 'vitest'
import { hashPassword, verifyPassword } from '~/utils/crypto.server'

/** Real scrypt at N=2^17 takes ~0.3 s alone but several seconds on a busy two-core machine. */
const REAL_SCRYPT_TIMEOUT_MS = 30_000

describe('passwords', () => {
  // Real hashes at the app's parameters here; every other suite uses the factories' cheap ones.
  test('a hash verifies its own password and no other', { timeout: REAL_SCRYPT_TIMEOUT_MS }, async () => {
    const stored = await hashPassword('s3cret passphrase')
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(stored).not.toContain('s3cret')
    expect(await verifyPassword('s3cret passphrase', stored)).toBe(true)
    expect(await verifyPassword('s3cret passphrasE', stored)).toBe(false)
  })

  test('two hashes of one password differ (random salt)', { timeout: REAL_SCRYPT_TIMEOUT_MS }, async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')])
    expect(a).not.toBe(b)
  })

  test.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['missing parts', 'scrypt$131072$8$1$c2FsdA=='],
    ['non-numeric cost', 'scrypt$lots$8$1$c2FsdA==$aGFzaA=='],
    ['impossible cost', 'scrypt$3$8$1$c2FsdA==$aGFzaA=='],
    // Decodes to an empty key, which would equal any password's empty derivation.
    ['empty key', 'scrypt$16$1$1$c2FsdA==$!!!!'],
  ])('a malformed stored hash (%s) never verifies', async (_label, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false)
  })
})
