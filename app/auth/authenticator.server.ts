import { parseWithZod } from '@conform-to/zod/v4'
import { FormStrategy } from 'remix-auth-form'
import type { SessionUser } from '~/auth/session-user'
import { database } from '~/db/client.server'
import { signInWithPassword, signUp } from '~/services/accounts.server'
import { Invalid } from '~/services/errors'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'
import { SignInSchema, SignUpSchema } from './schemas'

/**
 * E-mail and password through remix-auth-form. The strategies only read the form and call the
 * account service, which holds every rule. They are built per request because the client's
 * address (for rate limits) comes from the router context, which a strategy cannot see.
 */
function parseForm<Schema extends z.ZodType>(form: FormData, schema: Schema): z.output<Schema> {
  const submission = parseWithZod(form, { schema })
  if (submission.status !== 'success') throw new Invalid('Check the highlighted fields.')
  return submission.value as z.output<Schema>
}

/**
 * remix-auth-form's strategy, reading the form through `readFormData`: its own `authenticate`
 * clones the request and parses the body again, after the CSRF check and the action have parsed it.
 */
class ParsedFormStrategy<User> extends FormStrategy<User> {
  override async authenticate(request: Request) {
    return this.verify({ form: await readFormData(request), request })
  }
}

export function authenticateWithPassword(request: Request, ip: string) {
  return new ParsedFormStrategy<SessionUser>(({ form }) =>
    signInWithPassword(database(), parseForm(form, SignInSchema), { ip }),
  ).authenticate(request)
}

export function authenticateNewAccount(request: Request, ip: string) {
  return new ParsedFormStrategy<SessionUser>(({ form }) =>
    signUp(database(), parseForm(form, SignUpSchema), { ip }),
  ).authenticate(request)
}
