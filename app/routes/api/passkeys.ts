import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { body, errorResponse, json } from '~/auth/better-auth/responses.server'
import { clientIp } from '~/auth/client-ip.server'
import { type Auth, getAuth } from '~/auth/context.server'
import { finishSignIn } from '~/auth/sign-in.server'
import { database } from '~/db/client.server'
import { NotFound, Unauthorized } from '~/services/errors'
import { addPasskey, registrationOptions, signInOptions, signInWithPasskey } from '~/services/passkeys.server'
import { safeRedirect } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import type { Route } from './+types/passkeys'

/**
 * /api/passkeys/:step — the JSON of the passkey ceremonies the browser runs
 * (docs/decisions/041-passkeys.md). Each is a POST with the page's CSRF token in `x-csrf-token`
 * (the root middleware checks it and the Origin, as for every JSON post):
 *
 * - `register-options`, `register`: a signed-in person adds a passkey; the answer names it.
 * - `sign-in-options`, `sign-in`: anyone signs in with a passkey the device holds; the answer
 *   sets the session cookie and says where to go (`{ redirectTo }`).
 *
 * Refusals are `{ code, message }` with the domain error's status, as on /api/auth.
 */

// What @simplewebauthn/browser sends; the library checks every byte inside, this only its shape.
const Base64Url = z.string().regex(/^[\w-]*={0,2}$/)
const CredentialShape = {
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
}
const RegisterBody = z.object({
  response: z.looseObject({
    ...CredentialShape,
    response: z.looseObject({
      clientDataJSON: Base64Url,
      attestationObject: Base64Url,
      transports: z.array(z.string().max(32)).max(8).optional(),
    }),
  }),
})
const SignInBody = z.object({
  response: z.looseObject({
    ...CredentialShape,
    response: z.looseObject({
      clientDataJSON: Base64Url,
      authenticatorData: Base64Url,
      signature: Base64Url,
      userHandle: Base64Url.optional(),
    }),
  }),
  /** The page to land on (a local path), as /login's `redirect`. */
  redirect: z.string().max(2000).optional(),
})

const SIGNED_IN_PATH = '/dashboard'

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return json({ code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' }, 405)
  try {
    const auth = await getAuth(request, context)
    // The middleware let this through with a valid token, so the browser has a binding.
    const binding = auth.csrfBinding ?? ''
    const client = { ip: clientIp(request, context), userAgent: request.headers.get('User-Agent') }
    const db = database()
    switch (params.step) {
      case 'register-options':
        return json(await registrationOptions(db, signedIn(auth), binding, client))
      case 'register': {
        const input = await body(request, RegisterBody)
        const response = input.response as unknown as RegistrationResponseJSON
        return json({ passkey: await addPasskey(db, signedIn(auth), binding, response, client) }, 201)
      }
      case 'sign-in-options':
        return json(await signInOptions(db, binding, client))
      case 'sign-in': {
        const input = await body(request, SignInBody)
        const response = input.response as unknown as AuthenticationResponseJSON
        const user = await signInWithPasskey(db, binding, response, client)
        // A passkey is both factors (something held, verified by the device's lock): the one
        // sign-in pipeline starts the session without asking for a code.
        const signedIn = await finishSignIn({ request, context }, user.id, 'passkey')
        const headers = new Headers()
        for (const cookie of signedIn.setCookies) headers.append('Set-Cookie', cookie)
        return json({ redirectTo: safeRedirect(input.redirect, SIGNED_IN_PATH) }, 200, headers)
      }
      default:
        throw new NotFound('No such passkey step.')
    }
  } catch (error) {
    return errorResponse(error)
  }
}

function signedIn(auth: Auth) {
  if (!auth.user) throw new Unauthorized()
  return auth.user
}
