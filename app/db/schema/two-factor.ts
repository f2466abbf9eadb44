import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './accounts'
import { createdAt, id, ms } from './columns'

/**
 * Two-factor sign-in and the browsers an account has signed in from
 * (docs/decisions/040-two-factor-sign-in.md).
 */

/** A person's authenticator app: at most one, on once confirmed with a code. */
export const twoFactors = sqliteTable('two_factors', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The TOTP secret, encrypted (app/utils/secret-box.server.ts): never stored or logged in clear. */
  secret: text('secret').notNull(),
  /** Null while set up but not yet confirmed with a code: sign-in is unchanged until then. */
  confirmedAt: ms('confirmed_at'),
  /** The last 30-second step a code was accepted for: a code of that step or earlier is refused. */
  lastStep: integer('last_step'),
  createdAt: createdAt(),
})

/** One-time recovery codes, kept only as keyed hashes; a used one stays, marked, until regenerated. */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ms('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_id_idx').on(t.userId, t.codeHash)],
)

/**
 * The browsers an account has signed in from, each known by the hash of its `tw_device` cookie:
 * a sign-in from one not listed sends the new-sign-in e-mail and adds it.
 */
export const knownDevices = sqliteTable(
  'known_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
)
