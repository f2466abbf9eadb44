import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { REACTION_TYPES } from '~/domain/constants'
import { users } from './accounts'
import { createdAt, id, ms, updatedAt } from './columns'
import { tasks } from './tasks'

/** The discussion on a task: comments, their revisions and reactions, and the mentions they make. */
export const comments = sqliteTable(
  'comments',
  {
    id: id(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentCommentId: text('parent_comment_id').references((): AnySQLiteColumn => comments.id, {
      onDelete: 'cascade',
    }),
    content: text('content').notNull(),
    /** Set when the author edits; earlier versions live in `comment_revisions`. */
    editedAt: ms('edited_at'),
    /** A deleted comment with replies stays as a placeholder so its thread survives. */
    deletedAt: ms('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('comments_task_created_idx').on(t.taskId, t.createdAt),
    index('comments_parent_idx').on(t.parentCommentId),
    index('comments_user_idx').on(t.userId),
  ],
)

export const commentRevisions = sqliteTable(
  'comment_revisions',
  {
    id: id(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('comment_revisions_comment_idx').on(t.commentId, t.createdAt)],
)

export const commentReactions = sqliteTable(
  'comment_reactions',
  {
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REACTION_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  // One row per (comment, user, type): concurrent toggles cannot double-count.
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId, t.type] }),
    index('comment_reactions_user_idx').on(t.userId),
  ],
)

export const notifications = sqliteTable(
  'notifications',
  {
    id: id(),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** 'mention': a comment named them; 'assignment': the task was assigned to them (no comment). */
    type: text('type', { enum: ['mention', 'assignment'] }).notNull(),
    fromUserId: text('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    /** When a mention e-mail covered it: each mention is e-mailed at most once. */
    emailedAt: ms('emailed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_recipient_unread_idx').on(t.recipientId, t.isRead, t.createdAt),
    index('notifications_task_idx').on(t.taskId),
    index('notifications_comment_idx').on(t.commentId),
    index('notifications_from_user_idx').on(t.fromUserId),
  ],
)

export type Comment = typeof comments.$inferSelect
