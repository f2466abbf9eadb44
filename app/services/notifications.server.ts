import { and, asc, desc, eq, isNull, lte, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { notifications, tasks, users } from '~/db/schema'
import { commit } from '~/db/write.server'
import { NotFound } from './errors'
import type { Actor } from './session-user'
import { ruleOnTaskSql, ruleSql, viewerParams, viewerPlaceholders, viewerValues } from './tasks/rule.server'

/**
 * Mention notifications (docs/product-rules.md §1): unread until the person opens the task or
 * follows 'View Task'. A notification is its recipient's alone — anyone else asking about it
 * is told it does not exist. It also follows its task's visibility, checked when it is read:
 * while the task is hidden from the recipient (unshared, made private) the notification and the
 * comment text it carries do not exist for them; sharing the task again brings it back.
 */

export const NOTIFICATION_NOT_FOUND = 'Notification not found'

/** A comment mentioned them, or the task was assigned to them (tasks/assignment.server.ts). */
type NotificationType = (typeof notifications.$inferSelect)['type']

/** The wire shape of `comments.getMentionNotifications`. */
export type MentionNotification = {
  id: string
  taskId: string
  commentId: string | null
  type: NotificationType
  isRead: boolean
  fromUserName: string
  content: string
  createdAt: string
}

/** The recipient's unread mentions on tasks they may see, newest first; enough for any toast stack. */
export async function listUnreadMentions(db: Executor, recipient: Actor): Promise<MentionNotification[]> {
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
        ruleSql('see', viewerValues(recipient)),
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
export async function markNotificationRead(db: Database, recipient: Actor, notificationId: string) {
  const { read } = await commit(db, {
    read: db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(
          eq(notifications.id, notificationId),
          eq(notifications.recipientId, recipient.id),
          ruleOnTaskSql('see', viewerValues(recipient), notifications.taskId),
        ),
      ),
  })
  if (read.rowsAffected === 0) throw new NotFound(NOTIFICATION_NOT_FOUND)
}

/** Opening a task's modal reads its mentions of the viewer (the caller has checked the task is visible). */
export async function markTaskMentionsRead(db: Database, recipientId: string, taskId: string) {
  await commit(db, {
    read: db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(
          eq(notifications.recipientId, recipientId),
          eq(notifications.taskId, taskId),
          eq(notifications.isRead, false),
        ),
      ),
  })
}

// ── The inbox (/notifications and the header's badge) ───────────────────────
//
// Everything below shows only mentions on tasks the person may still see: once a task is
// unshared (or made private again), its mentions leave their inbox, count and e-mails, so the
// comment text stays with the people who can read the task.

/** How much of a comment an inbox line shows. */
export const INBOX_EXCERPT_CHARACTERS = 200
/** The inbox lists this many, newest first; older ones are reached through their tasks. */
const INBOX_LIMIT = 100

/** One line of the inbox. */
export type InboxMention = {
  id: string
  type: NotificationType
  taskId: string
  taskText: string
  fromUserName: string
  excerpt: string
  isRead: boolean
  createdAt: string
}

/** A mention of `recipient` whose task they may see (the task correlated by its primary key). */
function visibleMentionOf(recipient: Actor): SQL | undefined {
  return and(
    eq(notifications.recipientId, recipient.id),
    ruleOnTaskSql('see', viewerValues(recipient), notifications.taskId),
  )
}

/** The start of a comment, cut by code points so an emoji is never halved. */
export function excerptOf(content: string, characters = INBOX_EXCERPT_CHARACTERS) {
  const points = Array.from(content.trim())
  return points.length > characters ? `${points.slice(0, characters).join('').trimEnd()}…` : points.join('')
}

const unreadMentionCount = preparedPerDatabase((db) =>
  db
    .select({ count: sql<number>`count(*)` })
    .from(notifications)
    .where(
      and(
        eq(notifications.recipientId, sql.placeholder('viewerId')),
        eq(notifications.isRead, false),
        ruleOnTaskSql('see', viewerPlaceholders, notifications.taskId),
      ),
    )
    .prepare(),
)

/**
 * The header's badge: one COUNT over the (recipient, is_read) index, run on every signed-in page,
 * so prepared once (the rule of `visibleMentionOf`, with the recipient as placeholders).
 */
export async function countUnreadMentions(db: Database, recipient: Actor): Promise<number> {
  const [row] = await unreadMentionCount(db).all(viewerParams(recipient))
  return Number(row?.count ?? 0)
}

/** Mentions with the task's title and who wrote, as the inbox and the mention e-mail show them. */
function selectMentionLines(db: Executor, where: SQL | undefined) {
  return db
    .select({
      id: notifications.id,
      type: notifications.type,
      taskId: notifications.taskId,
      taskText: tasks.text,
      fromUserName: users.name,
      content: notifications.content,
      isRead: notifications.isRead,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .innerJoin(tasks, eq(tasks.id, notifications.taskId))
    .leftJoin(users, eq(users.id, notifications.fromUserId))
    .where(where)
}

function toInboxMention({
  content,
  ...row
}: Awaited<ReturnType<typeof selectMentionLines>>[number]): InboxMention {
  return {
    ...row,
    fromUserName: row.fromUserName || 'Someone',
    excerpt: excerptOf(content),
    createdAt: row.createdAt.toISOString(),
  }
}

/** The inbox: read and unread mentions, newest first, with the task's title and who wrote. */
export async function listInboxMentions(
  db: Executor,
  recipient: Actor,
  limit = INBOX_LIMIT,
): Promise<InboxMention[]> {
  const rows = await selectMentionLines(db, visibleMentionOf(recipient))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
  return rows.map(toInboxMention)
}

/** What a mention e-mail lists: unread mentions no e-mail has covered yet, oldest first. */
export async function listMentionsToEmail(db: Executor, recipient: Actor): Promise<InboxMention[]> {
  const rows = await selectMentionLines(
    db,
    and(visibleMentionOf(recipient), eq(notifications.isRead, false), isNull(notifications.emailedAt)),
  ).orderBy(asc(notifications.createdAt), asc(notifications.id))
  return rows.map(toInboxMention)
}

/**
 * "Mark all as read": the unread mentions the person could have seen — those created up to
 * `upTo`, the moment their inbox was listed — so one that arrives meanwhile stays unread.
 * Returns how many were marked.
 */
export async function markAllMentionsRead(db: Database, recipient: Actor, upTo: Date): Promise<number> {
  const { read } = await commit(db, {
    read: db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(visibleMentionOf(recipient), eq(notifications.isRead, false), lte(notifications.createdAt, upTo)),
      ),
  })
  return read.rowsAffected
}
