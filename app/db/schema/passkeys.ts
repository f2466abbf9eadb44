import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './accounts'
import { createdAt, id, ms } from './columns'

/**
 * Passkeys (WebAuthn credentials) and the challenges their ceremonies sign
 * (docs/decisions/041-passkeys.md). A passkey goes with its person: deleting the account deletes
 * them, so a passkey of a deleted account finds no row and signs nobody in.
 */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id the authenticator chose, base64url; what a sign-in names. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key the signatures are checked with. */
    publicKey: blob('public_key', { mode: 'buffer' }).notNull(),
    /** The authenticator's signature counter: a sign-in whose counter does not rise is refused. */
    counter: integer('counter').notNull().default(0),
    /** How the browser may reach the authenticator ("internal", "hybrid", …), comma-separated. */
    transports: text('transports').notNull().default(''),
    /** The authenticator model (AAGUID), which names the passkey when it is a known one. */
    aaguid: text('aaguid'),
    /** Shown in /settings: named from the device when added, renamable. */
    name: text('name').notNull(),
    /** Whether the passkey is synced (a password manager's) and backed up. */
    isBackedUp: integer('is_backed_up', { mode: 'boolean' }).notNull().default(false),
    lastUsedAt: ms('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('passkeys_user_id_idx').on(t.userId)],
)

/**
 * A challenge handed to a browser for one ceremony: single use (taken by the verify step whether
 * it succeeds or not), five minutes long, and bound to what asked for it: the session that adds
 * a passkey (with its person), or the browser's CSRF binding for a sign-in.
 */
export const passkeyChallenges = sqliteTable(
  'passkey_challenges',
  {
    /** The challenge itself, base64url: what the signed client data names. */
    challenge: text('challenge').primaryKey(),
    ceremony: text('ceremony', { enum: ['registration', 'authentication'] }).notNull(),
    /** The CSRF binding of the browser that asked (`session:…` or `anonymous:…`). */
    binding: text('binding').notNull(),
    /** For adding a passkey: whose. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('passkey_challenges_expires_at_idx').on(t.expiresAt)],
)

export type Passkey = typeof passkeys.$inferSelect
