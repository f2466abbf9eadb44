import { clientIp } from '~/auth/client-ip.server'
import { getAuth } from '~/auth/context.server'
import { startSession } from '~/auth/login.server'
import { OAuthFlowError, startOAuth } from '~/auth/oauth.server'
import { OAUTH_PROVIDERS } from '~/auth/oauth-providers'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { refusalFor } from '~/routes/refusals.server'
import {
  EmailSchema,
  ImageUrlSchema,
  NameSchema,
  PASSWORD_MAX_LENGTH,
  PasswordSchema,
  ReturnAddressSchema,
} from '~/services/account-schemas'
import {
  deleteAccount,
  getAccountDates,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  signInWithPassword,
  signUp,
  updateProfile,
  verifyEmail,
} from '~/services/accounts.server'
import { Invalid, isDomainError, Unauthorized } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import {
  type ActiveSession,
  deleteSession,
  listSessions,
  revokeAllSessions,
  revokeOtherSessions,
} from '~/services/sessions.server'
import { localPath } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import type { Route } from './+types/auth'

/**
 * /api/auth: the paths and JSON shapes of the better-auth client (docs/product-rules.md §5), so that client
 * works unchanged. A thin door: every endpoint calls the account service the HTML forms use.
 * Mutations carry `x-csrf-token` (checked by the root middleware, like every other POST).
 */

type Args = Route.LoaderArgs | Route.ActionArgs

const RESET_REQUESTED = 'If this email exists in our system, check your email for the reset link'

export async function loader(args: Route.LoaderArgs) {
  return answer(args)
}

/** POST, and the other methods React Router hands an action (PUT, PATCH, DELETE): those are 405. */
export async function action(args: Route.ActionArgs) {
  return answer(args)
}

async function answer(args: Args) {
  const path = args.params['*'] ?? ''
  // HEAD is GET without the body, which React Router drops.
  const method = args.request.method === 'HEAD' ? 'GET' : args.request.method
  const endpoint =
    method === 'GET' ? GET_ENDPOINTS[path] : method === 'POST' ? POST_ENDPOINTS[path] : undefined
  if (!endpoint) {
    const allowed = [GET_ENDPOINTS[path] ? 'GET' : null, POST_ENDPOINTS[path] ? 'POST' : null].filter(
      (name) => name !== null,
    )
    return allowed.length > 0
      ? json(
          { code: 'METHOD_NOT_ALLOWED', message: `Use ${allowed.join(' or ')} for /api/auth/${path}` },
          405,
          { Allow: allowed.join(', ') },
        )
      : json({ code: 'NOT_FOUND', message: 'Not found' }, 404)
  }
  try {
    return await endpoint(args)
  } catch (error) {
    return errorResponse(error)
  }
}

// ── Shapes ──────────────────────────────────────────────────────────────────

function userJson(user: SessionUser, row?: { createdAt: Date; updatedAt: Date }) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    emailVerified: user.emailVerified,
    createdAt: row?.createdAt.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  }
}

function sessionJson(
  session: Pick<ActiveSession, 'id' | 'expiresAt' | 'createdAt' | 'lastSeenAt' | 'ip' | 'userAgent'>,
  userId: string,
) {
  return {
    // The public id of a session is the hash the table keys it by; the cookie's secret never
    // leaves the cookie.
    id: session.id,
    token: session.id,
    userId,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.lastSeenAt.toISOString(),
    ipAddress: session.ip ?? null,
    userAgent: session.userAgent ?? null,
  }
}

function json(body: unknown, status = 200, headers?: HeadersInit) {
  const response = Response.json(body, { status, headers })
  response.headers.set('Cache-Control', 'no-store')
  return response
}

function errorResponse(error: unknown) {
  if (error instanceof z.ZodError) {
    return json(
      {
        code: 'VALIDATION_ERROR',
        message: error.issues[0]?.message ?? 'Invalid request',
        issues: error.issues,
      },
      400,
    )
  }
  const { reason, init } = refusalFor(error)
  return json({ code: reason.code, message: reason.message }, init.status, init.headers)
}

async function body<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const raw = await request.json().catch(() => {
    throw new Invalid('The request body must be JSON.')
  })
  return schema.parse(raw)
}

async function requireSession(args: Args) {
  const auth = await getAuth(args.request, args.context)
  if (!auth.user || !auth.session) throw new Unauthorized()
  return { user: auth.user, session: auth.session }
}

function userRow(userId: string) {
  return getAccountDates(database(), userId)
}

/** Signs the user in on this browser and answers better-auth's `{ token, user }` shape. */
async function signedIn(args: Args, user: SessionUser, extra: Record<string, unknown> = {}) {
  const { session, cookie } = await startSession(user.id, args.request, args.context)
  return json({ ...extra, token: session.id, user: userJson(user, await userRow(user.id)) }, 200, {
    'Set-Cookie': cookie,
  })
}

// ── Endpoints ───────────────────────────────────────────────────────────────

const GET_ENDPOINTS: Record<string, (args: Args) => Promise<Response>> = {
  'get-session': async (args) => {
    const auth = await getAuth(args.request, args.context)
    if (!auth.user || !auth.session) return json(null)
    return json({
      session: sessionJson(auth.session, auth.user.id),
      user: userJson(auth.user, await userRow(auth.user.id)),
    })
  },

  'list-sessions': async (args) => {
    const { user } = await requireSession(args)
    const sessions = await listSessions(database(), user.id)
    return json(sessions.map((session) => sessionJson(session, user.id)))
  },

  'verify-email': async (args) => {
    const url = new URL(args.request.url)
    const token = url.searchParams.get('token') ?? ''
    const callbackURL = localPath(url.searchParams.get('callbackURL'))
    try {
      const user = await verifyEmail(database(), token)
      if (callbackURL) return Response.redirect(new URL(callbackURL, url), 302)
      return json({ status: true, user: userJson(user, await userRow(user.id)) })
    } catch (error) {
      if (callbackURL && isDomainError(error)) {
        const target = new URL(callbackURL, url)
        target.searchParams.set('error', 'INVALID_TOKEN')
        return Response.redirect(target, 302)
      }
      throw error
    }
  },

  'callback/github': async (args) => forwardToCallback(args),
  'callback/google': async (args) => forwardToCallback(args),
}

/** OAuth providers return to /login/callback, which finishes the flow for both doors. */
function forwardToCallback(args: Args) {
  const url = new URL(args.request.url)
  return Promise.resolve(Response.redirect(new URL(`/login/callback${url.search}`, url), 302))
}

const POST_ENDPOINTS: Record<string, (args: Args) => Promise<Response>> = {
  'sign-up/email': async (args) => {
    const input = await body(
      args.request,
      z.object({
        name: NameSchema,
        email: EmailSchema,
        password: PasswordSchema,
        callbackURL: ReturnAddressSchema,
      }),
    )
    const user = await signUp(database(), input, { ip: clientIp(args.request, args.context) })
    return signedIn(args, user)
  },

  'sign-in/email': async (args) => {
    const input = await body(
      args.request,
      z.object({
        email: EmailSchema,
        password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
        callbackURL: ReturnAddressSchema,
        rememberMe: z.boolean().optional(),
      }),
    )
    const user = await signInWithPassword(database(), input, { ip: clientIp(args.request, args.context) })
    const url = localPath(input.callbackURL) ?? undefined
    return signedIn(args, user, { redirect: url !== undefined, url })
  },

  'sign-in/social': async (args) => {
    const input = await body(
      args.request,
      z.object({
        provider: z.enum(OAUTH_PROVIDERS, { error: 'Unknown provider' }),
        callbackURL: ReturnAddressSchema,
      }),
    )
    try {
      const { url, headers } = await startOAuth(input.provider, args.request, input.callbackURL)
      return json({ url, redirect: true }, 200, headers)
    } catch (error) {
      if (error instanceof OAuthFlowError)
        return json({ code: 'PROVIDER_NOT_FOUND', message: error.message }, 404)
      throw error
    }
  },

  'sign-out': async (args) => {
    const { session } = await getAuth(args.request, args.context)
    if (session) {
      try {
        await deleteSession(database(), session.id)
      } catch (error) {
        console.error('Signout failed', error)
      }
    }
    return json({ success: true }, 200, { 'Set-Cookie': clearSessionCookie() })
  },

  'update-user': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      z.object({ name: NameSchema.optional(), image: ImageUrlSchema.nullable().optional() }),
    )
    await updateProfile(database(), user.id, {
      name: input.name ?? user.name,
      image: input.image === undefined ? user.image : input.image,
    })
    return json({ status: true })
  },

  'delete-user': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      z.object({
        password: z.string().optional(),
        confirmation: z.string().optional(),
        callbackURL: ReturnAddressSchema,
      }),
    )
    await deleteAccount(database(), user.id, input)
    return json({ success: true, message: 'User deleted' }, 200, { 'Set-Cookie': clearSessionCookie() })
  },

  'revoke-sessions': async (args) => {
    const { user } = await requireSession(args)
    await revokeAllSessions(database(), user.id)
    return json({ status: true }, 200, { 'Set-Cookie': clearSessionCookie() })
  },

  'revoke-other-sessions': async (args) => {
    const { user, session } = await requireSession(args)
    await revokeOtherSessions(database(), user.id, session.id)
    return json({ status: true })
  },

  'send-verification-email': async (args) => {
    const { user } = await requireSession(args)
    await requestEmailVerification(database(), user.id)
    return json({ status: true })
  },

  'request-password-reset': async (args) => {
    const input = await body(args.request, z.object({ email: EmailSchema, redirectTo: ReturnAddressSchema }))
    await requestPasswordReset(database(), input.email, { ip: clientIp(args.request, args.context) })
    return json({ status: true, message: RESET_REQUESTED })
  },

  'reset-password': async (args) => {
    const input = await body(
      args.request,
      z.object({ newPassword: PasswordSchema, token: z.string().min(1) }),
    )
    await resetPassword(database(), input.token, input.newPassword)
    return json({ status: true })
  },
}
