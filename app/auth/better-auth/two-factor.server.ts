import { clientIp } from '~/auth/client-ip.server'
import { getAuth } from '~/auth/context.server'
import { finishSecondFactor } from '~/auth/sign-in.server'
import { database } from '~/db/client.server'
import { getAccount } from '~/services/profile.server'
import {
  beginTwoFactor,
  confirmTwoFactor,
  regenerateRecoveryCodes,
  revealTwoFactorUri,
  turnOffTwoFactor,
  twoFactorStatus,
  verifySecondFactor,
} from '~/services/two-factor.server'
import { z } from '~/utils/zod'
import { type BetterAuthArgs, requireSession, signedInJson, userRow } from './endpoints.server'
import { body, json, userJson } from './responses.server'

/**
 * better-auth's two-factor plugin, its paths, bodies and answers, on the two-factor service. One
 * difference on purpose: a code works once (better-auth accepts it again within its window).
 * `trustDevice` is accepted and ignored: every sign-in of an account with two-factor asks again.
 */

const CodeBody = z.object({
  code: z.string().max(64),
  trustDevice: z.boolean().optional(),
  disableSession: z.boolean().optional(),
})
const PasswordBody = z.object({ password: z.string().max(128).optional() })

/**
 * A code sent with a session confirms the setup (`/enable` then `/verify-totp`) or simply checks;
 * sent with the pending cookie of a sign-in, it ends that sign-in with a session.
 */
async function verify(args: BetterAuthArgs, kind: 'totp' | 'recovery') {
  const input = await body(args.request, CodeBody)
  const auth = await getAuth(args.request, args.context)
  const db = database()
  if (auth.user && auth.session) {
    const { status } = await twoFactorStatus(db, auth.user.id)
    if (status === 'pending' && kind === 'totp')
      await confirmTwoFactor(db, auth.user.id, input.code, auth.session.id)
    else
      await verifySecondFactor(
        db,
        auth.user.id,
        { code: input.code, kind },
        { ip: clientIp(args.request, args.context) },
      )
    return json({ token: auth.session.id, user: userJson(auth.user, await userRow(auth.user.id)) })
  }
  const signedIn = await finishSecondFactor(args, { code: input.code, kind })
  return signedInJson(signedIn, await getAccount(db, signedIn.userId))
}

export const TWO_FACTOR_ENDPOINTS: Record<string, (args: BetterAuthArgs) => Promise<Response>> = {
  'two-factor/enable': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(args.request, PasswordBody.extend({ issuer: z.string().optional() }))
    const setup = await beginTwoFactor(database(), user.id, {
      ...input,
      ip: clientIp(args.request, args.context),
    })
    return json({ method: 'totp', totpURI: setup.uri, backupCodes: setup.recoveryCodes })
  },

  'two-factor/verify-totp': (args) => verify(args, 'totp'),
  'two-factor/verify-backup-code': (args) => verify(args, 'recovery'),

  'two-factor/disable': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(args.request, PasswordBody.extend({ code: z.string().max(64).optional() }))
    await turnOffTwoFactor(database(), user.id, { ...input, ip: clientIp(args.request, args.context) })
    return json({ status: true })
  },

  'two-factor/get-totp-uri': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(args.request, PasswordBody)
    return json({ totpURI: await revealTwoFactorUri(database(), user.id, input) })
  },

  'two-factor/generate-backup-codes': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(args.request, PasswordBody)
    return json({
      status: true,
      backupCodes: await regenerateRecoveryCodes(database(), user.id, {
        ...input,
        ip: clientIp(args.request, args.context),
      }),
    })
  },
}
