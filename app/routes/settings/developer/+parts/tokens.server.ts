import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { Database } from '~/db/client.server'
import { replyWithError } from '~/http/refusals.server'
import { ApiTokenIdSchema, NewApiTokenSchema } from '~/services/api-token-schemas'
import { createApiToken, listApiTokens, revokeApiToken } from '~/services/api-tokens.server'
import type { SessionUser } from '~/services/session-user'
import { redirectWithToast } from '~/toast.server'
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

/**
 * A new token is answered in the page itself, never through a redirect, a cookie or a toast: the
 * one response that shows it is the only place its secret ever is.
 */
export async function createToken(db: Database, user: SessionUser, formData: FormData) {
  const intent = 'create-token'
  const submission = parseWithZod(formData, { schema: NewApiTokenSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  try {
    const { token, view } = await createApiToken(db, user, submission.value)
    return data(
      { intent, result: submission.reply({ resetForm: true }), created: { token, name: view.name } },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  } catch (error) {
    return replyWithError(submission, error, { body: { intent } })
  }
}

export async function revokeToken(db: Database, user: SessionUser, formData: FormData) {
  const intent = 'revoke-token'
  const submission = parseWithZod(formData, { schema: ApiTokenIdSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  try {
    await revokeApiToken(db, user, submission.value.tokenId)
  } catch (error) {
    return replyWithError(submission, error, { body: { intent } })
  }
  return redirectWithToast('/settings/developer', { type: 'success', title: 'Token revoked' })
}
