import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { commentReactions, commentRevisions, comments, notifications, tasks } from '~/db/schema'
import { commit, insertIf, prepareStep, type Step, wroteJustBefore } from '~/db/write.server'
import { appendEvent, prepareEvent } from '~/events/log.server'
import { findMentions } from '~/utils/mentions'
import type { NewComment } from './comment-schemas'
import {
  type Author,
  COMMENT_NOT_FOUND,
  type CommentView,
  findOwnComment,
  readComment,
  toView,
} from './comment-views.server'
import { Conflict, NotFound } from './errors'
import { prepareMentionEmailJob } from './mention-emails.server'
import { mentionableFor, mentionableOnTaskFor, mentionScope, recipientsOf } from './mentions.server'
import {
  hasAllowanceSql,
  prepareCountAttempt,
  type RateLimitRule,
  rateLimitParams,
  readWindow,
  spentWindowRefusal,
} from './rate-limit.server'
import type { Actor } from './session-user'
import { mayCommentSql, ruleSql, TASK_NOT_FOUND, viewerValues, visibilityParams } from './tasks/rule.server'

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
 * - every change is one commit with its event (app/db/write.server.ts).
 *
 * Posting, editing and deleting are here; reading in comment-views.server.ts, reactions in
 * comment-reactions.server.ts. All check access through the same task-visibility rule.
 */

/** Posting is limited per person: a burst of real conversation passes, a script does not. */
export const COMMENT_RATE_LIMIT: RateLimitRule = {
  limit: 30,
  windowMs: 60_000,
  message: 'You are commenting too fast. Please wait a minute and try again.',
}

// ── Posting ─────────────────────────────────────────────────────────────────

/** The values a comment's prepared statements name (see `addComment`). */
const comment = {
  id: sql.placeholder('commentId'),
  taskId: sql.placeholder('taskId'),
  now: sql.placeholder('now'),
}

/** The comment as this commit writes it: its instant is the commit's (`now`). */
const commentWrittenSql = sql`EXISTS (SELECT 1 FROM ${comments} WHERE ${comments.id} = ${comment.id} AND ${comments.updatedAt} = ${comment.now})`

const insertComment = prepareStep((db) =>
  insertIf(
    db,
    comments,
    {
      id: comment.id,
      taskId: comment.taskId,
      userId: sql.placeholder('viewerId'),
      parentCommentId: sql.placeholder('parentCommentId'),
      content: sql.placeholder('content'),
      createdAt: comment.now,
      updatedAt: comment.now,
    },
    sql`${mayCommentSql} AND ${hasAllowanceSql}`,
  ),
)
const commentAddedEvent = prepareEvent(wroteJustBefore)
const countComment = prepareCountAttempt(commentWrittenSql)

/**
 * Posts a comment or a reply and notifies the people it mentions. Returns the comment and how
 * many people were notified (the toast says so).
 *
 * One commit (docs/decisions/032-one-commit-per-comment.md): the comment (only while the task is
 * open to the author's comments and their rate-limit window has allowance left), its event, the window's
 * count, and each mention's notification, event and e-mail job, all conditional on the comment.
 * Before it, one read: whom the text may notify, the mention rules decided in that statement
 * (none when the text names nobody); who may comment is decided by the insert's guard alone.
 * A refused comment writes nothing; the window read back at the end says whether the limit
 * refused it. Every statement is built once.
 */
export async function addComment(
  db: Database,
  actor: Author,
  input: NewComment,
): Promise<{ comment: CommentView; notified: number }> {
  const taskId = input.taskId
  const parentCommentId = input.parentCommentId
    ? await threadRootOf(db, actor, taskId, input.parentCommentId)
    : null
  // Whether the author may comment is the insert's guard; what is read before is only whom the
  // text may notify, and nothing when it names nobody.
  const namesSomeone = input.mentions.length > 0 || input.content.includes('@')
  const mentionable = namesSomeone ? await mentionableOnTaskFor(db, actor, taskId) : []
  const recipients = recipientsOf(input.content, input.mentions, mentionable, actor.id)

  const commentId = crypto.randomUUID()
  const now = Date.now()
  const values = {
    ...visibilityParams(actor, taskId),
    ...rateLimitParams(`comment:user:${actor.id}`, COMMENT_RATE_LIMIT, now),
    commentId,
    parentCommentId,
    content: input.content,
  }
  const written = await commit(db, {
    comment: insertComment(values),
    event: commentAddedEvent(
      {
        topic: 'comments',
        type: 'comment-added',
        taskId,
        payload: { taskId, commentId, userId: actor.id, parentCommentId },
      },
      values,
    ),
    count: countComment(values),
    mentions: mentionSteps(actor, taskId, commentId, input.content, recipients, now),
    window: readWindow(values),
  })
  if (written.comment.rowsAffected === 0) {
    throw spentWindowRefusal(COMMENT_RATE_LIMIT, written.window, now) ?? new NotFound(TASK_NOT_FOUND)
  }
  // Just written by this commit, so what it holds is known: no read back.
  const view = toView({
    id: commentId,
    taskId,
    userId: actor.id,
    userName: actor.name,
    userImage: actor.image,
    content: input.content,
    createdAt: new Date(now),
    updatedAt: new Date(now),
    parentCommentId,
    editedAt: null,
    deletedAt: null,
    reactions: '[]',
    revisions: '[]',
  })
  return { comment: view, notified: recipients.length }
}

/**
 * Replies hang under the thread's first comment, so a reply to a reply stays in its thread. The
 * task must be in the author's sight first, so that a parent's absence tells nothing of a task
 * they cannot see.
 */
async function threadRootOf(db: Database, actor: Actor, taskId: string, parentCommentId: string) {
  await mentionScope(db, actor, taskId)
  const [parent] = await db
    .select({ id: comments.id, parentCommentId: comments.parentCommentId })
    .from(comments)
    .where(and(eq(comments.id, parentCommentId), eq(comments.taskId, taskId)))
    .limit(1)
  if (!parent) throw new NotFound(COMMENT_NOT_FOUND)
  return parent.parentCommentId ?? parent.id
}

const insertMention = prepareStep((db) =>
  insertIf(
    db,
    notifications,
    {
      id: sql.placeholder('notificationId'),
      recipientId: sql.placeholder('recipientId'),
      taskId: comment.taskId,
      commentId: comment.id,
      type: 'mention',
      fromUserId: sql.placeholder('fromUserId'),
      content: sql.placeholder('content'),
      isRead: false,
      emailedAt: null,
      createdAt: comment.now,
    },
    commentWrittenSql,
  ),
)
const mentionEvent = prepareEvent(wroteJustBefore)
const mentionEmailJob = prepareMentionEmailJob(commentWrittenSql)

/**
 * The mentions a comment makes, for the commit that writes it (at `now`, its instant): a
 * notification and a `mention` event per person, and the e-mail of each who is away, all
 * written only if the commit wrote the comment (a commit whose guard skipped it skips them too).
 */
function mentionSteps(
  actor: Actor,
  taskId: string,
  commentId: string,
  content: string,
  recipients: { id: string }[],
  now: number,
): Step[] {
  return recipients.flatMap((recipient) => {
    const notificationId = crypto.randomUUID()
    const values = {
      notificationId,
      recipientId: recipient.id,
      taskId,
      commentId,
      fromUserId: actor.id,
      content,
      now,
    }
    return [
      insertMention(values),
      mentionEvent(
        {
          topic: 'comments',
          type: 'mention',
          taskId,
          payload: { taskId, commentId, notificationId, recipientId: recipient.id, fromUserId: actor.id },
        },
        values,
      ),
      mentionEmailJob(recipient.id, values, now),
    ]
  })
}

// ── Editing and deleting ────────────────────────────────────────────────────

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
  const { comment: before, access } = await findOwnComment(db, actor, commentId)
  if (before.content === content) return readComment(db, commentId)
  const mentionable = await mentionableFor(db, access, actor)
  const alreadyMentioned = new Set(findMentions(before.content, mentionable).map((user) => user.id))
  const recipients = recipientsOf(content, [], mentionable, actor.id).filter(
    (user) => !alreadyMentioned.has(user.id),
  )
  const now = Date.now()
  const isStillOwn = ownLiveCommentSql(actor, commentId)
  const { edited } = await commit(db, {
    revision: insertIf(
      db,
      commentRevisions,
      { id: crypto.randomUUID(), commentId, content: before.content, createdAt: before.updatedAt },
      isStillOwn,
    ),
    edited: db
      .update(comments)
      .set({ content, editedAt: new Date(now), updatedAt: new Date(now) })
      .where(and(eq(comments.id, commentId), isStillOwn)),
    event: appendEvent(
      db,
      {
        topic: 'comments',
        type: 'comment-updated',
        taskId: before.taskId,
        payload: { taskId: before.taskId, commentId, userId: actor.id },
      },
      wroteJustBefore,
    ),
    mentions: mentionSteps(actor, before.taskId, commentId, content, recipients, now),
  })
  if (edited.rowsAffected === 0) throw new NotFound(COMMENT_NOT_FOUND)
  return readComment(db, commentId)
}

/** The actor's own comment, not deleted, on a task they still may comment on, as the commit reaches this. */
function ownLiveCommentSql(actor: Actor, commentId: string) {
  return sql`EXISTS (SELECT 1 FROM ${comments} c JOIN ${tasks} ON ${tasks.id} = c.task_id WHERE c.id = ${commentId} AND c.user_id = ${actor.id} AND c.deleted_at IS NULL AND ${ruleSql('comment', viewerValues(actor))})`
}

/**
 * The author deletes a comment. One with replies becomes a placeholder (its text, versions and
 * reactions gone) so the thread survives; a reply that was the last one under a placeholder
 * takes the placeholder with it.
 */
export async function deleteComment(db: Database, actor: Actor, commentId: string) {
  // A reply posted between the read and the commit keeps the comment (see below): read again.
  for (let attempt = 1; ; attempt++) {
    const { comment: found } = await findOwnComment(db, actor, commentId)
    if (await deleteCommentOnce(db, actor, found)) return
    if (attempt === 3) throw new Conflict('The comment changed while it was being deleted. Please try again.')
  }
}

async function deleteCommentOnce(db: Database, actor: Actor, found: typeof comments.$inferSelect) {
  const commentId = found.id
  const [replies] = await db
    .select({ n: sql<number>`count(*)` })
    .from(comments)
    .where(eq(comments.parentCommentId, commentId))
  const deletedEvent = (id: string, isPlaceholder: boolean, onlyIf: SQL) =>
    appendEvent(
      db,
      {
        topic: 'comments',
        type: 'comment-deleted',
        taskId: found.taskId,
        payload: { taskId: found.taskId, commentId: id, userId: actor.id, isPlaceholder },
      },
      onlyIf,
    )
  const isStillOwn = ownLiveCommentSql(actor, commentId)
  if (Number(replies?.n ?? 0) > 0) {
    const now = Date.now()
    const isOurPlaceholder = sql`EXISTS (SELECT 1 FROM ${comments} c WHERE c.id = ${commentId} AND c.deleted_at = ${now})`
    const { emptied } = await commit(db, {
      emptied: db
        .update(comments)
        .set({ content: '', deletedAt: new Date(now), updatedAt: new Date(now) })
        .where(and(eq(comments.id, commentId), isStillOwn)),
      event: deletedEvent(commentId, true, wroteJustBefore),
      revisions: db
        .delete(commentRevisions)
        .where(and(eq(commentRevisions.commentId, commentId), isOurPlaceholder)),
      reactions: db
        .delete(commentReactions)
        .where(and(eq(commentReactions.commentId, commentId), isOurPlaceholder)),
      notifications: db
        .delete(notifications)
        .where(and(eq(notifications.commentId, commentId), isOurPlaceholder)),
    })
    if (emptied.rowsAffected === 0) throw new NotFound(COMMENT_NOT_FOUND)
    return true
  }
  const parentId = found.parentCommentId
  const { removed } = await commit(db, {
    // Only while it has no replies: the foreign key would take a reply posted meanwhile unseen.
    removed: db
      .delete(comments)
      .where(
        and(
          eq(comments.id, commentId),
          isStillOwn,
          sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.parent_comment_id = ${commentId})`,
        ),
      ),
    event: deletedEvent(commentId, false, wroteJustBefore),
    // A reply that was the last one under a placeholder takes the placeholder with it.
    placeholder: parentId
      ? db
          .delete(comments)
          .where(
            and(
              eq(comments.id, parentId),
              sql`${comments.deletedAt} IS NOT NULL`,
              sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.parent_comment_id = ${parentId})`,
              sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.id = ${commentId})`,
            ),
          )
      : undefined,
    placeholderEvent: parentId ? deletedEvent(parentId, false, wroteJustBefore) : undefined,
  })
  return removed.rowsAffected > 0
}
