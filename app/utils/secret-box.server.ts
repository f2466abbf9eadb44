import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { env } from '~/env.server'

/**
 * What the database must hold but must not be able to give away: two-factor secrets, sealed
 * with AES-256-GCM, and recovery codes, kept as HMACs. The key is TWO_FACTOR_SECRET, else derived
 * from SESSION_SECRET (HKDF, its own label), so a copy of the database file alone reveals neither
 * (docs/decisions/040-two-factor-sign-in.md).
 */

const VERSION = 'v1'
let cached: { source: string; key: Buffer } | undefined

function key() {
  const source = env().TWO_FACTOR_SECRET ?? env().SESSION_SECRET
  if (cached?.source !== source) {
    const derived = hkdfSync('sha256', source, 'threadwork', 'two-factor secrets v1', 32)
    cached = { source, key: Buffer.from(derived) }
  }
  return cached.key
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url: a fresh IV each time, so equal secrets seal differently. */
export function seal(plain: string) {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key(), iv)
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.')
}

/** The plain text, or null when the box was sealed with another key or tampered with. */
export function unseal(box: string): string | null {
  const [version, iv, tag, sealed] = box.split('.')
  if (version !== VERSION || !iv || !tag || !sealed) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    return null
  }
}

/** A keyed hash: without the key, a leaked table cannot be searched for the codes it holds. */
export function keyedHash(value: string) {
  return createHmac('sha256', key()).update(value).digest('hex')
}
