import { BILLING_KINDS } from '~/pricing'
import { z } from '~/utils/zod'

/** One of the six options: `tier` 1 to 3 and `plan` yearly or lifetime (form fields and `?tier=&plan=`). */
export const CheckoutOptionSchema = z.object({
  tier: z.coerce
    .number({ error: 'Choose a tier from 1 to 3.' })
    .int('Choose a tier from 1 to 3.')
    .min(1, 'Choose a tier from 1 to 3.')
    .max(3, 'Choose a tier from 1 to 3.')
    .transform((tier) => tier as 1 | 2 | 3),
  plan: z.enum(BILLING_KINDS, { error: 'Choose yearly or lifetime.' }),
})
