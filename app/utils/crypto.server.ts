import { createHash, randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * The secrets we hand out (session cookies, e-mailed links) and how we store them: only a hash of
 * a token, and passwords through a memory-hard key derivation. Plain functions of their input, so
 * any layer (the account service, the seed script, the e-mail links) can use them.
 */

/** A secret for a cookie or a link: 32 random bytes, URL-safe. */
export function newToken() {
  return randomBytes(32).toString('base64url')
}

/** Tables hold only this hash of a token: a leaked database cannot be replayed as cookies or links. */
export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * scrypt from node:crypto with OWASP's parameters (N=2^17, r=8, p=1): memory-hard, no native
 * add-on to build. The stored form carries its parameters, so they can be raised later without
 * invalidating existing hashes.
 */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const
const KEY_LENGTH = 64

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) => {
    // maxmem must exceed 128 * N * r; leave headroom.
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 256 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, PARAMS, KEY_LENGTH)
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  // An empty key would compare equal to any password's empty derivation.
  if (expected.length === 0) return false
  try {
    const actual = await derive(
      password,
      Buffer.from(salt, 'base64'),
      { N: Number(n), r: Number(r), p: Number(p) },
      expected.length,
    )
    return timingSafeEqual(actual, expected)
  } catch {
    // Parameters scrypt rejects mean a corrupt row: no password matches it.
    return false
  }
}
