import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { verifications } from '~/db/schema'
import type { VERIFICATION_PURPOSES } from '~/domain/constants'
import { hashToken } from '~/utils/crypto.server'

/**
 * Whether an e-mailed link would still work, without using it up. Opening a link only looks;
 * the page's button spends the token. Mail scanners that pre-fetch every link in an e-mail then
 * cannot burn a verification or reset link before its owner clicks it.
 */
export async function isLinkUsable(
  db: Database,
  purpose: (typeof VERIFICATION_PURPOSES)[number],
  token: string,
  now = new Date(),
) {
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(
      and(
        eq(verifications.tokenHash, hashToken(token)),
        eq(verifications.purpose, purpose),
        isNull(verifications.usedAt),
        gt(verifications.expiresAt, now),
      ),
    )
    .limit(1)
  return row !== undefined
}
