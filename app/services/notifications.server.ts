import { and, desc, eq, inArray } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { notifications, tasks, users } from '~/db/schema'
import { NotFound } from './errors'
import { type Viewer, visibleToSql } from './tasks.server'

/**
 * Mention notifications (the spec's §3 and §4): unread until the person opens the task or
 * follows 'View Task'. A notification is its recipient's alone — anyone else asking about it
 * is told it does not exist. It also follows its task's visibility, checked when it is read:
 * while the task is hidden from the recipient (unshared, made private) the notification and the
 * comment text it carries do not exist for them; sharing the task again brings it back.
 */

export const NOTIFICATION_NOT_FOUND = 'Notification not found'

export type Recipient = NonNullable<Viewer>

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

/** The recipient's unread mentions on tasks they may see, newest first; enough for any toast stack. */
export async function listUnreadMentions(db: Executor, recipient: Recipient): Promise<MentionNotification[]> {
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
    .innerJoin(tasks, eq(tasks.id, notifications.taskId))
    .leftJoin(users, eq(users.id, notifications.fromUserId))
    .where(
      and(
        eq(notifications.recipientId, recipient.id),
        eq(notifications.isRead, false),
        visibleToSql(recipient),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(50)
  return rows.map((row) => ({
    ...row,
    fromUserName: row.fromUserName || 'Someone',
    createdAt: row.createdAt.toISOString(),
  }))
}

/** Marks one of the recipient's notifications read; one about a task they cannot see is not theirs. */
export async function markNotificationRead(db: Executor, recipient: Recipient, notificationId: string) {
  const visibleTasks = db.select({ id: tasks.id }).from(tasks).where(visibleToSql(recipient))
  const updated = await db
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(
        eq(notifications.id, notificationId),
        eq(notifications.recipientId, recipient.id),
        inArray(notifications.taskId, visibleTasks),
      ),
    )
    .returning({ id: notifications.id })
  if (updated.length === 0) throw new NotFound(NOTIFICATION_NOT_FOUND)
}

/** Opening a task's modal reads its mentions of the viewer (the caller has checked the task is visible). */
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
