import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { database } from '~/db/client.server'
import { SignInSchema, SignUpSchema } from '~/services/account-schemas'
import { signInWithPassword, signUp } from '~/services/accounts.server'
import { type DomainError, isDomainError } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'

/**
 * E-mail and password: read the sign-in or sign-up form once (through `readFormData`, so the
 * CSRF check's parse is reused), validate it with the form's schema and hand the value to the
 * account service, which holds every rule. The client's address (for rate limits) comes from the
 * router context, so the route passes it in.
 */

/**
 * How a password attempt ends: the person it signed in, or why not. It answers rather than throws
 * when the form is wrong or the service refuses, so the route can reply through conform: field
 * errors beside their fields, a refusal above the form, the typed values kept.
 */
export type FormAttempt<Schema extends z.ZodType> = {
  submission: Submission<z.input<Schema>, string[], z.output<Schema>>
} & (
  | { user: SessionUser; input: z.output<Schema> }
  /** `refusal` is null when the form itself did not validate. */
  | { user: null; refusal: DomainError | null }
)

async function attemptWithForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  verify: (input: z.output<Schema>) => Promise<SessionUser>,
): Promise<FormAttempt<Schema>> {
  const submission = parseWithZod(await readFormData(request), { schema })
  if (submission.status !== 'success') return { submission, user: null, refusal: null }
  try {
    return { submission, user: await verify(submission.value), input: submission.value }
  } catch (error) {
    if (isDomainError(error)) return { submission, user: null, refusal: error }
    throw error
  }
}

export function authenticateWithPassword(request: Request, ip: string) {
  return attemptWithForm(request, SignInSchema, (input) => signInWithPassword(database(), input, { ip }))
}

export function authenticateNewAccount(request: Request, ip: string) {
  return attemptWithForm(request, SignUpSchema, (input) => signUp(database(), input, { ip }))
}
