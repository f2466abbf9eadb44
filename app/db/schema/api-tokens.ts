import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { API_TOKEN_SCOPES } from '~/domain/api-tokens'
import { users } from './accounts'
import { createdAt, ms } from './columns'

/**
 * Personal API tokens: a program acting for the person who made one. The row's id is the token's
 * public part (it finds the row); only a SHA-256 of the secret part is kept, so a leaked table
 * authenticates nobody. Revoking deletes the row; deleting the account deletes its tokens.
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: API_TOKEN_SCOPES }).notNull(),
    secretHash: text('secret_hash').notNull(),
    /** Null: never expires. */
    expiresAt: ms('expires_at'),
    /** Written at most once a minute (app/services/api-tokens.server.ts). */
    lastUsedAt: ms('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('api_tokens_user_id_idx').on(t.userId)],
)
