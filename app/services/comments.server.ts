import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import {
  firstRow,
  preparedStatement,
  rowsAffected,
  type Statement,
  writeBatch,
  wroteJustBefore,
} from '~/db/batch.server'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { commentReactions, commentRevisions, comments, notifications, tasks, users } from '~/db/schema'
import type { ReactionType } from '~/domain/constants'
import { appendEventStatement, preparedEventStatement } from '~/events/log.server'
import { findMentions } from '~/utils/mentions'
import type { NewComment } from './comment-schemas'
import { Conflict, Forbidden, NotFound } from './errors'
import { preparedMentionEmailJob } from './mention-emails.server'
import { mentionableFor, mentionScope, recipientsOf } from './mentions.server'
import { markTaskMentionsRead } from './notifications.server'
import {
  countAttemptSql,
  hasAllowanceSql,
  type RateLimitRule,
  rateLimitParams,
  readWindowSql,
  spentWindowRefusal,
} from './rate-limit.server'
import type { Actor, SessionUser, Viewer } from './session-user'
import { canSeeTask, getTask } from './tasks/reads.server'
import { isTaskVisibleSql, TASK_NOT_FOUND, visibilityParams, visibleToSql } from './tasks/rule.server'

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

/** Who posts: as the session read them, with what the new comment shows of them. */
export type Author = Actor & Pick<SessionUser, 'name' | 'image'>

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

/** One comment as the discussion shows it, read after each change to it. */
const commentById = preparedPerDatabase((db) =>
  selectCommentViews(db, eq(comments.id, sql.placeholder('commentId')))
    .limit(1)
    .prepare(),
)

async function readComment(db: Database, commentId: string) {
  const [row] = await commentById(db).all({ commentId })
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
 *
 * One batch, one commit: the comment (only while the task is visible to the author and their
 * rate-limit window has allowance left), its event, the window's count, and each mention's
 * notification, event and e-mail job, all conditional on the comment. A refused comment writes
 * nothing; the window read back at the end says whether the limit refused it.
 */
export async function addComment(
  db: Database,
  actor: Author,
  input: NewComment,
): Promise<{ comment: CommentView; notified: number }> {
  const scope = await mentionScope(db, actor, input.taskId)
  const taskId = scope.task.id
  const parentCommentId = input.parentCommentId ? await threadRootOf(db, taskId, input.parentCommentId) : null
  const recipients = recipientsOf(input.content, input.mentions, await mentionableFor(db, scope), actor.id)

  const commentId = crypto.randomUUID()
  const now = Date.now()
  const values = {
    ...visibilityParams(actor, taskId),
    ...rateLimitParams(`comment:user:${actor.id}`, COMMENT_RATE_LIMIT, now),
    commentId,
    parentCommentId,
    content: input.content,
  }
  const results = await writeBatch(db, [
    insertCommentStatement(db, values),
    commentAddedEvent(
      db,
      {
        topic: 'comments',
        type: 'comment-added',
        taskId,
        payload: { taskId, commentId, userId: actor.id, parentCommentId },
      },
      values,
    ),
    countCommentStatement(db, values),
    ...mentionStatements(db, actor, taskId, commentId, input.content, recipients, now),
    readCommentWindow(db, values),
  ])
  if (rowsAffected(results[0]) === 0) {
    throw (
      spentWindowRefusal(COMMENT_RATE_LIMIT, firstRow(results.at(-1)), now) ?? new NotFound(TASK_NOT_FOUND)
    )
  }
  // Just written by this batch, so what it holds is known: no read back.
  const comment = toView({
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
  return { comment, notified: recipients.length }
}

/** The comment as this batch writes it: its instant is the batch's (`now`). */
const commentWrittenSql = sql`EXISTS (SELECT 1 FROM ${comments} WHERE ${comments.id} = ${sql.placeholder('commentId')} AND ${comments.updatedAt} = ${sql.placeholder('now')})`

const insertCommentStatement = preparedStatement(
  () =>
    sql`INSERT INTO ${comments} (id, task_id, user_id, parent_comment_id, content, created_at, updated_at) SELECT ${sql.placeholder('commentId')}, ${sql.placeholder('taskId')}, ${sql.placeholder('viewerId')}, ${sql.placeholder('parentCommentId')}, ${sql.placeholder('content')}, ${sql.placeholder('now')}, ${sql.placeholder('now')} WHERE ${isTaskVisibleSql} AND ${hasAllowanceSql}`,
)
const commentAddedEvent = preparedEventStatement(wroteJustBefore)
const countCommentStatement = preparedStatement(() => countAttemptSql(commentWrittenSql))
const readCommentWindow = preparedStatement(() => readWindowSql)

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

const insertMentionStatement = preparedStatement(
  () =>
    sql`INSERT INTO ${notifications} (id, recipient_id, task_id, comment_id, type, from_user_id, content, is_read, created_at) SELECT ${sql.placeholder('notificationId')}, ${sql.placeholder('recipientId')}, ${sql.placeholder('taskId')}, ${sql.placeholder('commentId')}, 'mention', ${sql.placeholder('fromUserId')}, ${sql.placeholder('content')}, 0, ${sql.placeholder('now')} WHERE ${commentWrittenSql}`,
)
const mentionEvent = preparedEventStatement(wroteJustBefore)
const mentionEmailJob = preparedMentionEmailJob(commentWrittenSql)

/**
 * The mentions a comment makes, for the batch that writes it (at `now`, its instant): a
 * notification and a `mention` event per person, and the e-mail of each who is away, all
 * written only if the batch wrote the comment (a batch whose guard skipped it skips them too).
 */
function mentionStatements(
  db: Database,
  actor: Actor,
  taskId: string,
  commentId: string,
  content: string,
  recipients: { id: string }[],
  now: number,
): Statement[] {
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
      insertMentionStatement(db, values),
      mentionEvent(
        db,
        {
          topic: 'comments',
          type: 'mention',
          taskId,
          payload: { taskId, commentId, notificationId, recipientId: recipient.id, fromUserId: actor.id },
        },
        values,
      ),
      mentionEmailJob(db, recipient.id, values, now),
    ]
  })
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
  const now = Date.now()
  const isStillOwn = ownLiveCommentSql(actor, commentId)
  const [, edited] = await writeBatch(db, [
    db.run(
      sql`INSERT INTO ${commentRevisions} (id, comment_id, content, created_at) SELECT ${crypto.randomUUID()}, ${commentId}, ${comment.content}, ${comment.updatedAt.getTime()} WHERE ${isStillOwn}`,
    ),
    db
      .update(comments)
      .set({ content, editedAt: new Date(now), updatedAt: new Date(now) })
      .where(and(eq(comments.id, commentId), isStillOwn)),
    appendEventStatement(
      db,
      {
        topic: 'comments',
        type: 'comment-updated',
        taskId: comment.taskId,
        payload: { taskId: comment.taskId, commentId, userId: actor.id },
      },
      wroteJustBefore,
    ),
    ...mentionStatements(db, actor, comment.taskId, commentId, content, recipients, now),
  ])
  if (rowsAffected(edited) === 0) throw new NotFound(COMMENT_NOT_FOUND)
  return readComment(db, commentId)
}

/** The actor's own comment, not deleted, on a task they still see, as the batch reaches this. */
function ownLiveCommentSql(actor: Actor, commentId: string) {
  return sql`EXISTS (SELECT 1 FROM ${comments} c JOIN ${tasks} ON ${tasks.id} = c.task_id WHERE c.id = ${commentId} AND c.user_id = ${actor.id} AND c.deleted_at IS NULL AND ${visibleToSql(actor)})`
}

/**
 * The author deletes a comment. One with replies becomes a placeholder (its text, versions and
 * reactions gone) so the thread survives; a reply that was the last one under a placeholder
 * takes the placeholder with it.
 */
export async function deleteComment(db: Database, actor: Actor, commentId: string) {
  // A reply posted between the read and the batch keeps the comment (see below): read again.
  for (let attempt = 1; ; attempt++) {
    const { comment } = await findOwnComment(db, actor, commentId)
    if (await deleteCommentOnce(db, actor, comment)) return
    if (attempt === 3) throw new Conflict('The comment changed while it was being deleted. Please try again.')
  }
}

async function deleteCommentOnce(db: Database, actor: Actor, comment: typeof comments.$inferSelect) {
  const commentId = comment.id
  const [replies] = await db
    .select({ n: sql<number>`count(*)` })
    .from(comments)
    .where(eq(comments.parentCommentId, commentId))
  const keepsPlaceholder = Number(replies?.n ?? 0) > 0
  const deletedEvent = (id: string, isPlaceholder: boolean, onlyIf: SQL) =>
    appendEventStatement(
      db,
      {
        topic: 'comments',
        type: 'comment-deleted',
        taskId: comment.taskId,
        payload: { taskId: comment.taskId, commentId: id, userId: actor.id, isPlaceholder },
      },
      onlyIf,
    )
  const isStillOwn = ownLiveCommentSql(actor, commentId)
  if (keepsPlaceholder) {
    const now = Date.now()
    const isOurPlaceholder = sql`EXISTS (SELECT 1 FROM ${comments} c WHERE c.id = ${commentId} AND c.deleted_at = ${now})`
    const [emptied] = await writeBatch(db, [
      db
        .update(comments)
        .set({ content: '', deletedAt: new Date(now), updatedAt: new Date(now) })
        .where(and(eq(comments.id, commentId), isStillOwn)),
      deletedEvent(commentId, true, wroteJustBefore),
      db.delete(commentRevisions).where(and(eq(commentRevisions.commentId, commentId), isOurPlaceholder)),
      db.delete(commentReactions).where(and(eq(commentReactions.commentId, commentId), isOurPlaceholder)),
      db.delete(notifications).where(and(eq(notifications.commentId, commentId), isOurPlaceholder)),
    ])
    if (rowsAffected(emptied) === 0) throw new NotFound(COMMENT_NOT_FOUND)
    return true
  }
  const hasNoReplies = sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.parent_comment_id = ${commentId})`
  const parentId = comment.parentCommentId
  const [removed] = await writeBatch(db, [
    // Only while it has no replies: the foreign key would take a reply posted meanwhile unseen.
    db.delete(comments).where(and(eq(comments.id, commentId), isStillOwn, hasNoReplies)),
    deletedEvent(commentId, false, wroteJustBefore),
    // A reply that was the last one under a placeholder takes the placeholder with it.
    ...(parentId
      ? [
          db
            .delete(comments)
            .where(
              and(
                eq(comments.id, parentId),
                sql`${comments.deletedAt} IS NOT NULL`,
                sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.parent_comment_id = ${parentId})`,
                sql`NOT EXISTS (SELECT 1 FROM ${comments} c WHERE c.id = ${commentId})`,
              ),
            ),
          deletedEvent(parentId, false, wroteJustBefore),
        ]
      : []),
  ])
  return rowsAffected(removed) > 0
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
  const now = Date.now()
  const values = { ...visibilityParams(actor, comment.taskId), commentId, type, now }
  const reactionEvent = (isActive: boolean) => ({
    topic: 'comments' as const,
    type: 'reaction-changed' as const,
    taskId: comment.taskId,
    payload: { taskId: comment.taskId, commentId, userId: actor.id, type, isActive },
  })
  // Add the reaction, or, when it is already there (the insert wrote nothing), remove it; the
  // primary key keeps concurrent toggles from ever counting a person twice.
  const [added, removed, , , state] = await writeBatch(db, [
    addReactionStatement(db, values),
    removeReactionStatement(db, values),
    reactionAddedEvent(db, reactionEvent(true), values),
    reactionRemovedEvent(db, reactionEvent(false), values),
    readReactionStatement(db, values),
  ])
  if (rowsAffected(added) === 0 && rowsAffected(removed) === 0) throw new NotFound(COMMENT_NOT_FOUND)
  const isActive = Boolean(firstRow(state)?.isActive)
  const { reactions } = await readComment(db, commentId)
  return { commentId, reactions, isActive }
}

/** The comment, not deleted, on its task, which the reacting person still sees as the batch runs. */
const isReactableSql = sql`EXISTS (SELECT 1 FROM ${comments} c WHERE c.id = ${sql.placeholder('commentId')} AND c.task_id = ${sql.placeholder('taskId')} AND c.deleted_at IS NULL) AND ${isTaskVisibleSql}`
const reactionExistsSql = sql`EXISTS (SELECT 1 FROM ${commentReactions} r WHERE r.comment_id = ${sql.placeholder('commentId')} AND r.user_id = ${sql.placeholder('viewerId')} AND r.type = ${sql.placeholder('type')})`

const addReactionStatement = preparedStatement(
  () =>
    sql`INSERT INTO ${commentReactions} (comment_id, user_id, type, created_at) SELECT ${sql.placeholder('commentId')}, ${sql.placeholder('viewerId')}, ${sql.placeholder('type')}, ${sql.placeholder('now')} WHERE ${isReactableSql} ON CONFLICT DO NOTHING`,
)
const removeReactionStatement = preparedStatement(
  () =>
    sql`DELETE FROM ${commentReactions} WHERE changes() = 0 AND comment_id = ${sql.placeholder('commentId')} AND user_id = ${sql.placeholder('viewerId')} AND type = ${sql.placeholder('type')} AND ${isReactableSql}`,
)
const reactionAddedEvent = preparedEventStatement(sql`${isReactableSql} AND ${reactionExistsSql}`)
const reactionRemovedEvent = preparedEventStatement(sql`${isReactableSql} AND NOT ${reactionExistsSql}`)
const readReactionStatement = preparedStatement(() => sql`SELECT ${reactionExistsSql} AS isActive`)

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
