import { asc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { commentReactions, commentRevisions, comments, users } from '~/db/schema'
import { Forbidden, NotFound } from './errors'
import { mentionableFor } from './mentions.server'
import { markTaskMentionsRead } from './notifications.server'
import type { Actor, SessionUser, Viewer } from './session-user'
import { canSeeTask, getTask } from './tasks/reads.server'
import { TASK_NOT_FOUND } from './tasks/rule.server'

/**
 * How a discussion reads (the rules are in comments.server.ts): every comment of a task with its
 * author, reactions and earlier versions in one statement, and the checks the writes start from
 * (a comment the actor may act on, one that is their own).
 */

export const COMMENT_NOT_FOUND = 'Comment not found'
export const NOT_AUTHOR = 'Only its author can change a comment'

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

export function toView(row: CommentRow): CommentView {
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

export async function readComment(db: Database, commentId: string) {
  const [row] = await commentById(db).all({ commentId })
  if (!row) throw new NotFound(COMMENT_NOT_FOUND)
  return toView(row)
}

/**
 * A comment the actor may act on: its task must be visible to them (else it does not exist for
 * them), and a placeholder of a deleted comment takes no further changes.
 */
export async function findLiveComment(db: Executor, actor: Viewer, commentId: string) {
  const [comment] = await db.select().from(comments).where(eq(comments.id, commentId)).limit(1)
  if (!comment || comment.deletedAt !== null) throw new NotFound(COMMENT_NOT_FOUND)
  const access = await getTask(db, actor, comment.taskId).catch((error: unknown) => {
    throw error instanceof NotFound ? new NotFound(COMMENT_NOT_FOUND) : error
  })
  return { comment, access }
}

export async function findOwnComment(db: Executor, actor: Actor, commentId: string) {
  const found = await findLiveComment(db, actor, commentId)
  if (found.comment.userId !== actor.id) throw new Forbidden(NOT_AUTHOR)
  return found
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
    viewer ? mentionableFor(db, access, viewer) : [],
  ])
  if (viewer) await markTaskMentionsRead(db, viewer.id, access.task.id)
  return { comments: discussion.map(toView), mentionable }
}
