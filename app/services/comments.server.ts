import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { commentReactions, commentRevisions, comments, notifications, users } from '~/db/schema'
import type { ReactionType } from '~/domain/constants'
import { appendEvent } from '~/events/log.server'
import { findMentions } from '~/utils/mentions'
import type { NewComment } from './comment-schemas'
import { Forbidden, NotFound } from './errors'
import { scheduleMentionEmails } from './mention-emails.server'
import { mentionableFor, recipientsOf } from './mentions.server'
import { markTaskMentionsRead } from './notifications.server'
import { consumeRateLimit, type RateLimitRule } from './rate-limit.server'
import type { SessionUser } from './session-user'
import { canSeeTask, getTask, TASK_NOT_FOUND, type Viewer } from './tasks.server'

/**
 * The rules of comments (docs/product-rules.md §1, §2):
 * - anyone who can see a task reads its comments; any signed-in person who can see it comments,
 *   replies and reacts;
 * - replies form one level of threads: a reply to a reply joins the same thread;
 * - only the author edits (earlier versions are kept) or deletes; a deleted comment that has
 *   replies stays as a placeholder so its thread survives;
 * - a reaction is one row per (comment, person, type), so a toggle can never count twice;
 * - each mentioned person gets a notification, and an e-mail when they are away (see
 *   mention-emails.server.ts); who may be mentioned is decided here, never by the client (see
 *   mentions.server.ts);
 * - every change appends its event in the same transaction.
 *
 * One file past the ~300 lines we aim for, on purpose: reading, writing, threading and reacting
 * all check access through the same task-visibility query, and the rules above stay together.
 */

export const COMMENT_NOT_FOUND = 'Comment not found'
export const NOT_AUTHOR = 'Only its author can change a comment'

/** Posting is limited per person: a burst of real conversation passes, a script does not. */
export const COMMENT_RATE_LIMIT: RateLimitRule = {
  limit: 30,
  windowMs: 60_000,
  message: 'You are commenting too fast. Please wait a minute and try again.',
}

export type Actor = Pick<SessionUser, 'id' | 'name' | 'email' | 'emailVerified'>

/** The wire shape RPC clients rely on (docs/product-rules.md §5), plus what the comments section shows. */
export type CommentView = {
  id: string
  taskId: string
  userId: string
  userName: string
  userImage: string | null
  content: string
  createdAt: string
  updatedAt: string
  parentCommentId: string | null
  /** JSON text of `[{type, userId}]`, as the original clients read it. */
  reactions: string
  editedAt: string | null
  isDeleted: boolean
  /** Earlier versions, oldest first; empty unless edited. */
  revisions: { content: string; createdAt: string }[]
}

// ── Reading ─────────────────────────────────────────────────────────────────

/**
 * One statement for a whole discussion: the author joined, reactions and earlier versions as
 * correlated subqueries on indexed columns — no query per comment.
 */
function selectCommentViews(db: Executor, where: SQL | undefined) {
  return db
    .select({
      id: comments.id,
      taskId: comments.taskId,
      userId: comments.userId,
      userName: users.name,
      userImage: users.image,
      content: comments.content,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      parentCommentId: comments.parentCommentId,
      editedAt: comments.editedAt,
      deletedAt: comments.deletedAt,
      reactions: sql<string>`(SELECT json_group_array(json_object('type', r.type, 'userId', r.user_id)) FROM (SELECT type, user_id FROM ${commentReactions} WHERE comment_id = ${comments.id} ORDER BY created_at) r)`,
      revisions: sql<string>`(SELECT json_group_array(json_object('content', v.content, 'createdAt', v.created_at)) FROM (SELECT content, created_at FROM ${commentRevisions} WHERE comment_id = ${comments.id} ORDER BY created_at) v)`,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(where)
    .orderBy(asc(comments.createdAt), asc(comments.id))
}

type CommentRow = Awaited<ReturnType<typeof selectCommentViews>>[number]

function toView(row: CommentRow): CommentView {
  const isDeleted = row.deletedAt !== null
  const revisions = JSON.parse(row.revisions) as { content: string; createdAt: number }[]
  return {
    id: row.id,
    taskId: row.taskId,
    userId: row.userId,
    userName: row.userName || 'Unknown User',
    userImage: row.userImage,
    content: isDeleted ? '' : row.content,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    parentCommentId: row.parentCommentId,
    reactions: row.reactions,
    editedAt: row.editedAt?.toISOString() ?? null,
    isDeleted,
    revisions: isDeleted
      ? []
      : revisions.map((revision) => ({
          content: revision.content,
          createdAt: new Date(revision.createdAt).toISOString(),
        })),
  }
}

/** The read pages poll most: one task's discussion, built once per database. */
const discussionOf = preparedPerDatabase((db) =>
  selectCommentViews(db, eq(comments.taskId, sql.placeholder('taskId'))).prepare(),
)

/** A task's discussion, oldest first; readable by anyone who can see the task. */
export async function listComments(db: Database, viewer: Viewer, taskId: string): Promise<CommentView[]> {
  if (!(await canSeeTask(db, viewer, taskId))) throw new NotFound(TASK_NOT_FOUND)
  const rows = await discussionOf(db).all({ taskId })
  return rows.map(toView)
}

async function readComment(db: Executor, commentId: string) {
  const [row] = await selectCommentViews(db, eq(comments.id, commentId)).limit(1)
  if (!row) throw new NotFound(COMMENT_NOT_FOUND)
  return toView(row)
}

/**
 * A comment the actor may act on: its task must be visible to them (else it does not exist for
 * them), and a placeholder of a deleted comment takes no further changes.
 */
async function findLiveComment(db: Executor, actor: Viewer, commentId: string) {
  const [comment] = await db.select().from(comments).where(eq(comments.id, commentId)).limit(1)
  if (!comment || comment.deletedAt !== null) throw new NotFound(COMMENT_NOT_FOUND)
  const access = await getTask(db, actor, comment.taskId).catch((error: unknown) => {
    throw error instanceof NotFound ? new NotFound(COMMENT_NOT_FOUND) : error
  })
  return { comment, access }
}

async function findOwnComment(db: Executor, actor: Actor, commentId: string) {
  const found = await findLiveComment(db, actor, commentId)
  if (found.comment.userId !== actor.id) throw new Forbidden(NOT_AUTHOR)
  return found
}

// ── Changing ────────────────────────────────────────────────────────────────

/**
 * Posts a comment or a reply and notifies the people it mentions. Returns the comment and how
 * many people were notified (the toast says so).
 */
export async function addComment(
  db: Database,
  actor: Actor,
  input: NewComment,
): Promise<{ comment: CommentView; notified: number }> {
  await consumeRateLimit(db, `comment:user:${actor.id}`, COMMENT_RATE_LIMIT)
  const access = await getTask(db, actor, input.taskId)
  const parentCommentId = input.parentCommentId
    ? await threadRootOf(db, access.task.id, input.parentCommentId)
    : null
  const recipients = recipientsOf(input.content, input.mentions, await mentionableFor(db, access), actor.id)

  const commentId = await db.transaction(async (tx) => {
    const now = new Date()
    const [row] = await tx
      .insert(comments)
      .values({
        taskId: access.task.id,
        userId: actor.id,
        parentCommentId,
        content: input.content,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: comments.id })
    const id = (row as { id: string }).id
    await appendEvent(tx, {
      topic: 'comments',
      type: 'comment-added',
      taskId: access.task.id,
      payload: { taskId: access.task.id, commentId: id, userId: actor.id, parentCommentId },
    })
    await notifyMentioned(tx, actor, access.task.id, id, input.content, recipients)
    return id
  })
  return { comment: await readComment(db, commentId), notified: recipients.length }
}

/** Replies hang under the thread's first comment, so a reply to a reply stays in its thread. */
async function threadRootOf(db: Executor, taskId: string, parentCommentId: string) {
  const [parent] = await db
    .select({ id: comments.id, parentCommentId: comments.parentCommentId })
    .from(comments)
    .where(and(eq(comments.id, parentCommentId), eq(comments.taskId, taskId)))
    .limit(1)
  if (!parent) throw new NotFound(COMMENT_NOT_FOUND)
  return parent.parentCommentId ?? parent.id
}

async function notifyMentioned(
  tx: Executor,
  actor: Actor,
  taskId: string,
  commentId: string,
  content: string,
  recipients: { id: string }[],
) {
  if (recipients.length === 0) return
  const rows = await tx
    .insert(notifications)
    .values(
      recipients.map((recipient) => ({
        recipientId: recipient.id,
        taskId,
        commentId,
        type: 'mention' as const,
        fromUserId: actor.id,
        content,
      })),
    )
    .returning({ id: notifications.id, recipientId: notifications.recipientId })
  for (const row of rows) {
    await appendEvent(tx, {
      topic: 'comments',
      type: 'mention',
      taskId,
      payload: {
        taskId,
        commentId,
        notificationId: row.id,
        recipientId: row.recipientId,
        fromUserId: actor.id,
      },
    })
  }
  await scheduleMentionEmails(
    tx,
    rows.map((row) => row.recipientId),
  )
}

/**
 * The author rewrites a comment: the earlier text is kept as a revision, and people the new
 * text mentions for the first time are notified.
 */
export async function updateComment(
  db: Database,
  actor: Actor,
  commentId: string,
  content: string,
): Promise<CommentView> {
  const { comment, access } = await findOwnComment(db, actor, commentId)
  if (comment.content === content) return readComment(db, commentId)
  const mentionable = await mentionableFor(db, access)
  const alreadyMentioned = new Set(findMentions(comment.content, mentionable).map((user) => user.id))
  const recipients = recipientsOf(content, [], mentionable, actor.id).filter(
    (user) => !alreadyMentioned.has(user.id),
  )
  await db.transaction(async (tx) => {
    const now = new Date()
    await tx
      .insert(commentRevisions)
      .values({ commentId, content: comment.content, createdAt: comment.updatedAt })
    await tx
      .update(comments)
      .set({ content, editedAt: now, updatedAt: now })
      .where(eq(comments.id, commentId))
    await appendEvent(tx, {
      topic: 'comments',
      type: 'comment-updated',
      taskId: comment.taskId,
      payload: { taskId: comment.taskId, commentId, userId: actor.id },
    })
    await notifyMentioned(tx, actor, comment.taskId, commentId, content, recipients)
  })
  return readComment(db, commentId)
}

/**
 * The author deletes a comment. One with replies becomes a placeholder (its text, versions and
 * reactions gone) so the thread survives; a reply that was the last one under a placeholder
 * takes the placeholder with it.
 */
export async function deleteComment(db: Database, actor: Actor, commentId: string) {
  const { comment } = await findOwnComment(db, actor, commentId)
  await db.transaction(async (tx) => {
    const [replies] = await tx
      .select({ n: sql<number>`count(*)` })
      .from(comments)
      .where(eq(comments.parentCommentId, commentId))
    const keepsPlaceholder = Number(replies?.n ?? 0) > 0
    const removed = [commentId]
    if (keepsPlaceholder) {
      const now = new Date()
      await tx
        .update(comments)
        .set({ content: '', deletedAt: now, updatedAt: now })
        .where(eq(comments.id, commentId))
      await tx.delete(commentRevisions).where(eq(commentRevisions.commentId, commentId))
      await tx.delete(commentReactions).where(eq(commentReactions.commentId, commentId))
      await tx.delete(notifications).where(eq(notifications.commentId, commentId))
    } else {
      await tx.delete(comments).where(eq(comments.id, commentId))
      if (comment.parentCommentId) {
        const emptied = await tx
          .delete(comments)
          .where(
            and(
              eq(comments.id, comment.parentCommentId),
              sql`${comments.deletedAt} IS NOT NULL`,
              sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.parent_comment_id = ${comment.parentCommentId})`,
            ),
          )
          .returning({ id: comments.id })
        removed.push(...emptied.map((row) => row.id))
      }
    }
    for (const id of removed) {
      await appendEvent(tx, {
        topic: 'comments',
        type: 'comment-deleted',
        taskId: comment.taskId,
        payload: {
          taskId: comment.taskId,
          commentId: id,
          userId: actor.id,
          isPlaceholder: id === commentId && keepsPlaceholder,
        },
      })
    }
  })
}

/**
 * Toggles the actor's reaction of one type. The insert either adds the row or, when it is
 * already there, does nothing — then the toggle removes it; the primary key keeps concurrent
 * toggles from ever counting a person twice.
 */
export async function toggleReaction(
  db: Database,
  actor: Actor,
  commentId: string,
  type: ReactionType,
): Promise<{ commentId: string; reactions: string; isActive: boolean }> {
  const { comment } = await findLiveComment(db, actor, commentId)
  const isActive = await db.transaction(async (tx) => {
    const added = await tx
      .insert(commentReactions)
      .values({ commentId, userId: actor.id, type })
      .onConflictDoNothing()
      .returning({ type: commentReactions.type })
    const active = added.length > 0
    if (!active) {
      await tx
        .delete(commentReactions)
        .where(
          and(
            eq(commentReactions.commentId, commentId),
            eq(commentReactions.userId, actor.id),
            eq(commentReactions.type, type),
          ),
        )
    }
    await appendEvent(tx, {
      topic: 'comments',
      type: 'reaction-changed',
      taskId: comment.taskId,
      payload: { taskId: comment.taskId, commentId, userId: actor.id, type, isActive: active },
    })
    return active
  })
  const { reactions } = await readComment(db, commentId)
  return { commentId, reactions, isActive }
}

/**
 * What the comments section of the task modal starts from: the discussion, whom the viewer may
 * mention (none when signed out), and — since the viewer is now looking at the task — its
 * mentions of them marked read.
 */
export async function openDiscussion(db: Database, viewer: Viewer, taskId: string) {
  const access = await getTask(db, viewer, taskId)
  const [discussion, mentionable] = await Promise.all([
    selectCommentViews(db, eq(comments.taskId, access.task.id)),
    viewer ? mentionableFor(db, access) : [],
  ])
  if (viewer) await markTaskMentionsRead(db, viewer.id, access.task.id)
  return { comments: discussion.map(toView), mentionable }
}
