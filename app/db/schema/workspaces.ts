import { sql } from 'drizzle-orm'
import { check, index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { INVITATION_ROLES, INVITATION_STATUSES, WORKSPACE_ROLES } from '~/domain/workspaces'
import { users } from './accounts'
import { createdAt, id, ms } from './columns'

/**
 * Workspaces, the people in them and the invitations to them (docs/product-rules.md §1). Every
 * account has one personal workspace, its id the account's own, created with the account by a
 * trigger (drizzle/0014_workspaces.sql) so that no way of creating an account can leave one out.
 */
export const workspaces = sqliteTable(
  'workspaces',
  {
    id: id(),
    name: text('name').notNull(),
    /** Unique; 3–40 lower-case letters, digits and hyphens (`WorkspaceSlugSchema`). */
    slug: text('slug').notNull(),
    /** The account whose personal workspace this is; null for a team's. */
    personalOf: text('personal_of').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('workspaces_slug_idx').on(t.slug),
    uniqueIndex('workspaces_personal_of_idx').on(t.personalOf),
  ],
)

export const workspaceMembers = sqliteTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId, t.workspaceId, t.role),
    // Exactly one owner: a second one cannot be written, only a transfer moves the role.
    uniqueIndex('workspace_members_one_owner_idx').on(t.workspaceId).where(sql`${t.role} = 'owner'`),
    check('workspace_members_role_valid', sql`${t.role} IN ('owner', 'admin', 'member')`),
  ],
)

export const workspaceInvitations = sqliteTable(
  'workspace_invitations',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Lower-cased; only a person who verified this address may accept. */
    email: text('email').notNull(),
    role: text('role', { enum: INVITATION_ROLES }).notNull(),
    inviterId: text('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('pending'),
    expiresAt: ms('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One pending invitation per address and workspace.
    uniqueIndex('workspace_invitations_pending_idx')
      .on(t.workspaceId, t.email)
      .where(sql`${t.status} = 'pending'`),
    index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt),
    index('workspace_invitations_inviter_idx').on(t.inviterId, t.status),
    index('workspace_invitations_email_idx').on(t.email, t.status),
    check('workspace_invitations_role_valid', sql`${t.role} IN ('admin', 'member')`),
    check(
      'workspace_invitations_status_valid',
      sql`${t.status} IN ('pending', 'accepted', 'rejected', 'canceled')`,
    ),
  ],
)
