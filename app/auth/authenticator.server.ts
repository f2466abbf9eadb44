import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { FormStrategy } from 'remix-auth-form'
import { database } from '~/db/client.server'
import { SignInSchema, SignUpSchema } from '~/services/account-schemas'
import { signInWithPassword, signUp } from '~/services/accounts.server'
import { type DomainError, isDomainError } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'

/**
 * E-mail and password through remix-auth-form. The strategy is what reads the sign-in and
 * sign-up forms: its verify callback gets the form, validates it with the form's schema and
 * hands the value to the account service, which holds every rule. Strategies are built per
 * request because the client's address (for rate limits) comes from the router context, which a
 * strategy cannot see.
 */

/**
 * How a form strategy ends: the person it signed in, or why not. It answers rather than throws
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

/**
 * remix-auth-form's strategy, reading the form through `readFormData`: its own `authenticate`
 * clones the request and parses the body a second time, after the CSRF check parsed it.
 */
class ParsedFormStrategy<User> extends FormStrategy<User> {
  override async authenticate(request: Request) {
    return this.verify({ form: await readFormData(request), request })
  }
}

function schemaFormStrategy<Schema extends z.ZodType>(
  schema: Schema,
  verify: (input: z.output<Schema>) => Promise<SessionUser>,
) {
  return new ParsedFormStrategy<FormAttempt<Schema>>(async ({ form }) => {
    const submission = parseWithZod(form, { schema })
    if (submission.status !== 'success') return { submission, user: null, refusal: null }
    try {
      return { submission, user: await verify(submission.value), input: submission.value }
    } catch (error) {
      if (isDomainError(error)) return { submission, user: null, refusal: error }
      throw error
    }
  })
}

export function authenticateWithPassword(request: Request, ip: string) {
  return schemaFormStrategy(SignInSchema, (input) =>
    signInWithPassword(database(), input, { ip }),
  ).authenticate(request)
}

export function authenticateNewAccount(request: Request, ip: string) {
  return schemaFormStrategy(SignUpSchema, (input) => signUp(database(), input, { ip })).authenticate(request)
}
