import { API_TOKEN_EXPIRIES, API_TOKEN_LIMITS, API_TOKEN_SCOPES } from '~/domain/api-tokens'
import { z } from '~/utils/zod'

/** The form that makes a personal API token (/settings/developer), and the service's input. */
export const NewApiTokenSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(
      API_TOKEN_LIMITS.name.maxLength,
      `Name must be at most ${API_TOKEN_LIMITS.name.maxLength} characters`,
    ),
  scope: z.enum(API_TOKEN_SCOPES, { error: 'Choose read or read and write' }),
  expiry: z.enum(API_TOKEN_EXPIRIES, { error: 'Choose when the token expires' }),
})

export type NewApiToken = z.output<typeof NewApiTokenSchema>

export const ApiTokenIdSchema = z.object({ tokenId: z.string().min(1, 'tokenId is required') })
