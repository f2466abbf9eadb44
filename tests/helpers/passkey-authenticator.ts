import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'

/**
 * A passkey authenticator in software, for service and route tests: it answers the options the
 * server hands out with real attestation and assertion responses (ES256 keys from node:crypto,
 * "none" attestation, CBOR written here), exactly as a browser would pass them on. Each answer
 * can be bent the way an attack or a broken device would: another origin or RP ID, no user
 * verification, a counter that does not rise, another challenge.
 */

type StoredCredential = {
  id: string
  privateKey: KeyObject
  userHandle: string
  rpId: string
  counter: number
}

export type Bend = {
  /** The origin the browser reports (default: the one the authenticator was made for). */
  origin?: string
  /** The RP ID whose hash the authenticator signs (default: the options'). */
  rpId?: string
  /** Whether the device verified the person (PIN, biometrics); default true. */
  isUserVerified?: boolean
  /** The signature counter to report instead of the next one. */
  counter?: number
  /** A challenge to sign instead of the options'. */
  challenge?: string
}

export function softwareAuthenticator({ origin }: { origin: string }) {
  const credentials = new Map<string, StoredCredential>()

  return {
    credentials,

    /** `navigator.credentials.create()`: a new discoverable credential for these options. */
    create(options: PublicKeyCredentialCreationOptionsJSON, bend: Bend = {}): RegistrationResponseJSON {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const credentialId = randomBytes(16)
      const id = credentialId.toString('base64url')
      const rpId = bend.rpId ?? options.rp.id ?? ''
      const counter = bend.counter ?? 0
      credentials.set(id, { id, privateKey, userHandle: options.user.id, rpId, counter })

      const jwk = publicKey.export({ format: 'jwk' })
      const coseKey = new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ])
      const credentialIdLength = Buffer.alloc(2)
      credentialIdLength.writeUInt16BE(credentialId.length)
      const authData = Buffer.concat([
        authenticatorData(rpId, bend, counter, FLAG_ATTESTED),
        Buffer.alloc(16), // AAGUID: zeros, as an authenticator that does not say its model
        credentialIdLength,
        credentialId,
        cbor(coseKey),
      ])
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      )
      return {
        id,
        rawId: id,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: clientData(
            'webauthn.create',
            bend.challenge ?? options.challenge,
            bend.origin ?? origin,
          ),
          attestationObject: attestationObject.toString('base64url'),
          transports: ['internal'],
        },
      }
    },

    /** `navigator.credentials.get()` with a passkey it holds (the first, unless one is named). */
    get(
      options: PublicKeyCredentialRequestOptionsJSON,
      bend: Bend & { credentialId?: string } = {},
    ): AuthenticationResponseJSON {
      const credential = bend.credentialId
        ? credentials.get(bend.credentialId)
        : credentials.values().next().value
      if (!credential) throw new Error('The authenticator holds no passkey')
      credential.counter = bend.counter ?? credential.counter + 1
      const authData = authenticatorData(
        bend.rpId ?? options.rpId ?? credential.rpId,
        bend,
        credential.counter,
        0,
      )
      const clientDataJSON = clientData(
        'webauthn.get',
        bend.challenge ?? options.challenge,
        bend.origin ?? origin,
      )
      const signed = Buffer.concat([
        authData,
        createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest(),
      ])
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON,
          authenticatorData: authData.toString('base64url'),
          signature: sign('sha256', signed, credential.privateKey).toString('base64url'),
          userHandle: credential.userHandle,
        },
      }
    },
  }
}

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
const FLAG_ATTESTED = 0x40

function authenticatorData(rpId: string, bend: Bend, counter: number, extraFlags: number) {
  const flags = FLAG_USER_PRESENT | (bend.isUserVerified === false ? 0 : FLAG_USER_VERIFIED) | extraFlags
  const signCount = Buffer.alloc(4)
  signCount.writeUInt32BE(counter)
  return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), signCount])
}

function clientData(type: string, challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url')
}

// ── The little CBOR an attestation needs: maps, integers, text and bytes ────

function cbor(value: unknown): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value)
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  if (value instanceof Map) {
    const parts: Uint8Array[] = [head(5, value.size)]
    for (const [key, item] of value) parts.push(cbor(key), cbor(item))
    return Buffer.concat(parts)
  }
  throw new Error(`No CBOR for ${typeof value}`)
}

function head(major: number, length: number) {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  const bytes = Buffer.alloc(3)
  bytes[0] = (major << 5) | 25
  bytes.writeUInt16BE(length, 1)
  return bytes
}
