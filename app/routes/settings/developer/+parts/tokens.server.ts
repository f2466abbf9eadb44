import { data } from 'react-router'
import type { Database } from '~/db/client.server'
import type { IntentChanges } from '~/http/form-action.server'
import { ApiTokenIdSchema, NewApiTokenSchema } from '~/services/api-token-schemas'
import { createApiToken, listApiTokens, revokeApiToken } from '~/services/api-tokens.server'
import type { SessionUser } from '~/services/session-user'
import { redirectWithToast } from '~/toast.server'
import { z } from '~/utils/zod'
import type { TokenRow } from './tokens'

/** The personal API tokens section of /settings/developer: what its loader reads, what its forms do. */

export async function loadTokens(db: Database, user: SessionUser): Promise<TokenRow[]> {
  const now = Date.now()
  return (await listApiTokens(db, user)).map((token) => ({
    id: token.id,
    name: token.name,
    scope: token.scope,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    isExpired: token.expiresAt !== null && token.expiresAt.getTime() <= now,
  }))
}

/** The section's forms, each named by its hidden `intent` field. */
export const TOKEN_FORMS = [
  NewApiTokenSchema.safeExtend({ intent: z.literal('create-token') }),
  ApiTokenIdSchema.safeExtend({ intent: z.literal('revoke-token') }),
] as const
const TokenIntent = z.discriminatedUnion('intent', TOKEN_FORMS)

/** The section's changes, for handleForm. */
export function tokenChanges(db: Database, user: SessionUser) {
  return {
    // A new token is answered in the page itself, never through a redirect, a cookie or a toast:
    // the one response that shows it is the only place its secret ever is.
    'create-token': async ({ intent, ...fields }, form) => {
      const { token, view } = await createApiToken(db, user, fields)
      return data(
        { intent, result: form.reply({ resetForm: true }), created: { token, name: view.name } },
        { headers: { 'Cache-Control': 'no-store' } },
      )
    },
    'revoke-token': async ({ tokenId }) => {
      await revokeApiToken(db, user, tokenId)
      return redirectWithToast('/settings/developer', { type: 'success', title: 'Token revoked' })
    },
  } satisfies IntentChanges<typeof TokenIntent>
}
