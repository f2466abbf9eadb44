import { and, desc, eq, lt, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { adminAudit } from '~/db/schema'
import { type Builder, insertIf } from '~/db/write.server'

/**
 * The admin audit log: one row per action taken in the console, written as a statement of the
 * action's own commit, so an action and its record exist together or not at all. Nothing here
 * updates or deletes a row, and the database refuses both (drizzle/0008_admin_console.sql).
 */

const ADMIN_ACTIONS = [
  'resend-verification',
  'end-sessions',
  'disable',
  'enable',
  'sign-in-as',
  'stop-sign-in-as',
  'retry-invitation',
  'retry-job',
  'discard-job',
  'retry-email',
  'discard-email',
] as const
export type AdminAction = (typeof ADMIN_ACTIONS)[number]

/** The admin acting, as the console's routes resolve them (app/auth/admin.server.ts). */
export type AdminActor = { id: string; email: string; ip: string | null }

/**
 * The audit row of an action, to put in the action's commit; with `onlyIf` (`wroteJustBefore`),
 * written only when the action's statement did something.
 */
export function auditStep(
  db: Builder,
  admin: AdminActor,
  action: AdminAction,
  on: { userId?: string | null; target: string },
  onlyIf: SQL = sql`1`,
) {
  return insertIf(
    db,
    adminAudit,
    {
      id: crypto.randomUUID(),
      adminId: admin.id,
      adminEmail: admin.email,
      action,
      targetUserId: on.userId ?? null,
      target: on.target,
      ip: admin.ip,
      createdAt: new Date(),
    },
    onlyIf,
  )
}

export const AUDIT_PAGE_SIZE = 50

/** The log, newest first, a page at a time (`before` is the oldest time of the previous page). */
export async function listAudit(db: Database, { userId, before }: { userId?: string; before?: Date } = {}) {
  return db
    .select()
    .from(adminAudit)
    .where(
      and(
        userId ? eq(adminAudit.targetUserId, userId) : undefined,
        before ? lt(adminAudit.createdAt, before) : undefined,
      ),
    )
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
    .limit(AUDIT_PAGE_SIZE)
}

/** The times an admin signed in as this person, newest first, for their own sessions list. */
export async function supportSignInsOf(db: Database, userId: string) {
  return db
    .select({ adminEmail: adminAudit.adminEmail, createdAt: adminAudit.createdAt, ip: adminAudit.ip })
    .from(adminAudit)
    .where(and(eq(adminAudit.targetUserId, userId), eq(adminAudit.action, 'sign-in-as')))
    .orderBy(desc(adminAudit.createdAt))
    .limit(20)
}
