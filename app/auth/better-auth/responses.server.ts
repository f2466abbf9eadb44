import { Invalid, refusalFor } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import type { ActiveSession } from '~/services/sessions.server'
import { z } from '~/utils/zod'

/** The JSON shapes the better-auth client reads: its user, its session, its errors. */

export function userJson(
  user: SessionUser,
  row?: { createdAt: Date; updatedAt: Date; twoFactorEnabled?: boolean },
) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    emailVerified: user.emailVerified,
    createdAt: row?.createdAt.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    // The field better-auth's two-factor plugin adds to its user.
    twoFactorEnabled: row?.twoFactorEnabled ?? false,
  }
}

export function sessionJson(
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

export function json(body: unknown, status = 200, headers?: HeadersInit) {
  const response = Response.json(body, { status, headers })
  response.headers.set('Cache-Control', 'no-store')
  return response
}

export function errorResponse(error: unknown) {
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

/** The request's JSON body, checked against `schema` (a ZodError answers 400). */
export async function body<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  const raw = await request.json().catch(() => {
    throw new Invalid('The request body must be JSON.')
  })
  return schema.parse(raw)
}

/** The request's query string, checked against `schema` (a ZodError answers 400). */
export function query<Schema extends z.ZodType>(request: Request, schema: Schema): z.output<Schema> {
  return schema.parse(Object.fromEntries(new URL(request.url).searchParams))
}
