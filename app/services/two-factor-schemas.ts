import { z } from '~/utils/zod'

/**
 * The two-factor forms' schemas, shared by the pages (conform, on both sides) and the service's
 * callers. A code is what an authenticator app shows: 6 digits, spaces allowed when pasted.
 */
const TotpCodeSchema = z
  .string({ error: 'Enter the 6-digit code from your app' })
  .transform((code) => code.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your app'))

const RecoveryCodeSchema = z
  .string({ error: 'Enter one of your recovery codes' })
  .trim()
  .min(1, 'Enter one of your recovery codes')
  .max(64, 'That is longer than a recovery code')

export const SecondFactorSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('totp'), code: TotpCodeSchema }),
  z.object({ intent: z.literal('recovery'), code: RecoveryCodeSchema }),
])

export const TurnOnTwoFactorSchema = z.object({ password: z.string().max(128).optional() })
export const ConfirmTwoFactorSchema = z.object({ code: TotpCodeSchema })
/** Turning off or regenerating: the password, or for accounts without one a current code. */
export const TwoFactorProofSchema = z.object({
  password: z.string().max(128).optional(),
  code: z.string().max(64).optional(),
})
