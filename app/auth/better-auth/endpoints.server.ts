import type { RouterContextProvider } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { getAuth } from '~/auth/context.server'
import { OAuthFlowError } from '~/auth/oauth/errors.server'
import { startOAuth } from '~/auth/oauth/flow.server'
import { OAUTH_PROVIDERS } from '~/auth/oauth-providers'
import { clearSessionCookie } from '~/auth/session-cookie.server'
import { finishSignIn, type SignedIn } from '~/auth/sign-in.server'
import { database } from '~/db/client.server'
import {
  EmailSchema,
  ImageUrlSchema,
  NameSchema,
  PASSWORD_MAX_LENGTH,
  PasswordSchema,
  ReturnAddressSchema,
} from '~/services/account-schemas'
import {
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  signInWithPassword,
  signUp,
  verifyEmail,
} from '~/services/accounts.server'
import { isDomainError, Unauthorized } from '~/services/errors'
import { deleteAccount, getAccountDates, updateProfile } from '~/services/profile.server'
import type { SessionUser } from '~/services/session-user'
import {
  deleteSession,
  listSessions,
  revokeAllSessions,
  revokeOtherSessions,
} from '~/services/sessions.server'
import { isTwoFactorOn } from '~/services/two-factor.server'
import { localPath } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import { body, json, sessionJson, userJson } from './responses.server'

/**
 * Each better-auth endpoint, by path: it reads its input, calls the account or sessions service
 * the HTML forms use, and answers the shape the better-auth client expects.
 */

/** What a loader or action of the /api/auth/* route hands over. */
export type BetterAuthArgs = {
  request: Request
  context: Readonly<RouterContextProvider>
  params: { '*'?: string }
}

const RESET_REQUESTED = 'If this email exists in our system, check your email for the reset link'

export async function requireSession(args: BetterAuthArgs) {
  const auth = await getAuth(args.request, args.context)
  if (!auth.user || !auth.session) throw new Unauthorized()
  return { user: auth.user, session: auth.session }
}

export async function userRow(userId: string) {
  const db = database()
  const [dates, twoFactorEnabled] = await Promise.all([
    getAccountDates(db, userId),
    isTwoFactorOn(db, userId),
  ])
  return dates && { ...dates, twoFactorEnabled }
}

/** A session started on this browser, as better-auth's `{ token, user }` with its cookies. */
export async function signedInJson(
  signedIn: Pick<SignedIn, 'session' | 'setCookies'>,
  user: SessionUser,
  extra: Record<string, unknown> = {},
) {
  const headers = new Headers()
  for (const cookie of signedIn.setCookies) headers.append('Set-Cookie', cookie)
  return json(
    { ...extra, token: signedIn.session.id, user: userJson(user, await userRow(user.id)) },
    200,
    headers,
  )
}

/**
 * Signs in through the one pipeline (app/auth/sign-in.server.ts): a session, or, for an account
 * with two-factor on, better-auth's `{ twoFactorRedirect: true }` and the pending cookie only.
 */
async function signedIn(
  args: BetterAuthArgs,
  user: SessionUser,
  options: { isNewAccount?: boolean; extra?: Record<string, unknown> } = {},
) {
  const outcome = await finishSignIn(args, user.id, 'password', { isNewAccount: options.isNewAccount })
  if (!outcome.isPending) return signedInJson(outcome, user, options.extra)
  const headers = new Headers()
  for (const cookie of outcome.setCookies) headers.append('Set-Cookie', cookie)
  return json({ twoFactorRedirect: true, twoFactorMethods: ['totp'] }, 200, headers)
}

export const GET_ENDPOINTS: Record<string, (args: BetterAuthArgs) => Promise<Response>> = {
  'get-session': async (args) => {
    const auth = await getAuth(args.request, args.context)
    if (!auth.user || !auth.session) return json(null)
    return json({
      // The organization plugin's field: the workspace this session works in.
      session: {
        ...sessionJson(auth.session, auth.user.id),
        activeOrganizationId: auth.user.activeWorkspaceId,
      },
      user: userJson(auth.user, await userRow(auth.user.id)),
    })
  },

  'list-sessions': async (args) => {
    const { user } = await requireSession(args)
    const sessions = await listSessions(database(), user.id)
    return json(
      sessions.map((session) => ({
        ...sessionJson(session, user.id),
        activeOrganizationId: session.activeWorkspaceId,
      })),
    )
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

/** OAuth providers return to /login/callback, which finishes the flow for the sign-in buttons and /api/auth alike. */
function forwardToCallback(args: BetterAuthArgs) {
  const url = new URL(args.request.url)
  return Promise.resolve(Response.redirect(new URL(`/login/callback${url.search}`, url), 302))
}

export const POST_ENDPOINTS: Record<string, (args: BetterAuthArgs) => Promise<Response>> = {
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
    return signedIn(args, user, { isNewAccount: true })
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
    return signedIn(args, user, { extra: { redirect: url !== undefined, url } })
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
