import { and, desc, eq } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { notifications, users } from '~/db/schema'
import { NotFound } from './errors'

/**
 * Mention notifications (the spec's §3 and §4): unread until the person opens the task or
 * follows 'View Task'. A notification is its recipient's alone — anyone else asking about it
 * is told it does not exist.
 */

export const NOTIFICATION_NOT_FOUND = 'Notification not found'

/** The wire shape of `comments.getMentionNotifications`. */
export type MentionNotification = {
  id: string
  taskId: string
  commentId: string | null
  type: 'mention'
  isRead: boolean
  fromUserName: string
  content: string
  createdAt: string
}

/** The recipient's unread mentions, newest first; enough for any toast stack. */
export async function listUnreadMentions(db: Executor, recipientId: string): Promise<MentionNotification[]> {
  const rows = await db
    .select({
      id: notifications.id,
      taskId: notifications.taskId,
      commentId: notifications.commentId,
      type: notifications.type,
      isRead: notifications.isRead,
      fromUserName: users.name,
      content: notifications.content,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.fromUserId))
    .where(and(eq(notifications.recipientId, recipientId), eq(notifications.isRead, false)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(50)
  return rows.map((row) => ({
    ...row,
    fromUserName: row.fromUserName || 'Someone',
    createdAt: row.createdAt.toISOString(),
  }))
}

export async function markNotificationRead(db: Executor, recipientId: string, notificationId: string) {
  const updated = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, notificationId), eq(notifications.recipientId, recipientId)))
    .returning({ id: notifications.id })
  if (updated.length === 0) throw new NotFound(NOTIFICATION_NOT_FOUND)
}

/** Opening a task's modal reads its mentions of the viewer. */
export async function markTaskMentionsRead(db: Executor, recipientId: string, taskId: string) {
  await db
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(
        eq(notifications.recipientId, recipientId),
        eq(notifications.taskId, taskId),
        eq(notifications.isRead, false),
      ),
    )
}
