import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, id } from './columns'

/**
 * Every action taken in the admin console (docs/decisions/045-admin-console.md): who did what, to
 * whom, when and from which address. Written in the commit of the action itself; never updated or
 * deleted (triggers in the migration refuse both). No foreign keys: the record of an action on a
 * deleted account, or by a deleted admin, must outlive them, so names and addresses are copied in.
 */
export const adminAudit = sqliteTable(
  'admin_audit',
  {
    id: id(),
    adminId: text('admin_id').notNull(),
    adminEmail: text('admin_email').notNull(),
    action: text('action').notNull(),
    /** The person acted on, when the action concerns one. */
    targetUserId: text('target_user_id'),
    /** What was acted on, as an admin reads it: an address, a purchase or job id. */
    target: text('target').notNull().default(''),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_audit_created_idx').on(t.createdAt),
    index('admin_audit_target_user_idx').on(t.targetUserId, t.createdAt),
  ],
)
