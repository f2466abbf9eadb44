import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { knownDevices, users } from '~/db/schema'
import { commit, wroteJustBefore } from '~/db/write.server'
import type { SIGN_IN_METHODS } from '~/domain/constants'
import { emailStatement } from '~/email/outbox.server'
import { signInAlertMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { hashToken } from '~/utils/crypto.server'
import { describeUserAgent } from '~/utils/user-agent'

/**
 * "New sign-in to your Threadwork account": sent when an account signs in from a browser it has
 * not signed in from before. A browser is its `tw_device` cookie, a random id it keeps for a year
 * (app/auth/sign-in.server.ts); the table keeps only its hash. One commit adds the browser and,
 * only when that row is new, queues the e-mail, so two sign-ins at once still send one.
 */

export type SignInMethod = (typeof SIGN_IN_METHODS)[number]

export const METHOD_NAMES: Record<SignInMethod, string> = {
  password: 'Password',
  passkey: 'Passkey',
  github: 'GitHub',
  google: 'Google',
}

export async function rememberBrowser(
  db: Database,
  userId: string,
  deviceToken: string,
  sign: { method: SignInMethod; userAgent: string | null; isNewAccount: boolean; isTwoFactor: boolean },
) {
  const device = db
    .insert(knownDevices)
    .values({ userId, deviceHash: hashToken(deviceToken) })
    .onConflictDoNothing()
  // The sign-up itself is no news to its owner: the browser is remembered, nothing is sent.
  if (sign.isNewAccount) return commit(db, { device })
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
  if (!user) return
  const method = `${METHOD_NAMES[sign.method]}${sign.isTwoFactor ? ' and a two-factor code' : ''}`
  const message = signInAlertMessage(
    user.email,
    { method, at: new Date(), device: describeUserAgent(sign.userAgent) },
    { settings: `${env().BASE_URL}/settings` },
  )
  await commit(db, { device, email: emailStatement(db, message, wroteJustBefore) })
}
