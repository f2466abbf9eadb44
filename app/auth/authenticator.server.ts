import { FormStrategy } from 'remix-auth-form'
import { database } from '~/db/client.server'
import type { SignInSchema, SignUpSchema } from '~/services/account-schemas'
import { signInWithPassword, signUp } from '~/services/accounts.server'
import type { SessionUser } from '~/services/session-user'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'

/**
 * E-mail and password through remix-auth-form. The route owns the form: it reads the body once
 * (`readFormData`, the same parse the CSRF check used) and validates it with the form's schema,
 * because only it can answer field errors through conform. The strategy receives that validated
 * value and never parses the form again; its verify callback only calls the account service,
 * which holds every rule. Strategies are built per request because the client's address (for
 * rate limits) comes from the router context, which a strategy cannot see.
 */

/**
 * remix-auth-form's strategy, reading the form through `readFormData`: its own `authenticate`
 * clones the request and parses the body again, after the CSRF check and the action have parsed it.
 */
class ParsedFormStrategy<User> extends FormStrategy<User> {
  override async authenticate(request: Request) {
    return this.verify({ form: await readFormData(request), request })
  }
}

export function authenticateWithPassword(request: Request, input: z.output<typeof SignInSchema>, ip: string) {
  return new ParsedFormStrategy<SessionUser>(() =>
    signInWithPassword(database(), input, { ip }),
  ).authenticate(request)
}

export function authenticateNewAccount(request: Request, input: z.output<typeof SignUpSchema>, ip: string) {
  return new ParsedFormStrategy<SessionUser>(() => signUp(database(), input, { ip })).authenticate(request)
}
