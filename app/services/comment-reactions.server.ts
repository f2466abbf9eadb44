import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { commentReactions, comments } from '~/db/schema'
import { commit, insertIf, prepareStep, wroteJustBefore } from '~/db/write.server'
import type { ReactionType } from '~/domain/constants'
import { prepareEvent } from '~/events/log.server'
import { COMMENT_NOT_FOUND, findLiveComment, readComment } from './comment-views.server'
import { NotFound } from './errors'
import type { Actor } from './session-user'
import { mayCommentSql, visibilityParams } from './tasks/rule.server'

/**
 * Reactions (docs/product-rules.md §2): anyone signed in who can see a task reacts to its live
 * comments; a reaction is one row per (comment, person, type), so a toggle can never count twice.
 */

const reaction = {
  commentId: sql.placeholder('commentId'),
  taskId: sql.placeholder('taskId'),
  userId: sql.placeholder('viewerId'),
  type: sql.placeholder('type'),
  now: sql.placeholder('now'),
}

/** The comment, not deleted, on its task, which the reacting person still may comment on as the commit runs. */
const isReactableSql = sql`EXISTS (SELECT 1 FROM ${comments} WHERE ${comments.id} = ${reaction.commentId} AND ${comments.taskId} = ${reaction.taskId} AND ${comments.deletedAt} IS NULL) AND ${mayCommentSql}`
const isOwnReaction = and(
  eq(commentReactions.commentId, reaction.commentId),
  eq(commentReactions.userId, reaction.userId),
  eq(commentReactions.type, reaction.type),
)
const reactionExistsSql = sql`EXISTS (SELECT 1 FROM ${commentReactions} WHERE ${isOwnReaction})`

const addReaction = prepareStep((db) =>
  insertIf(
    db,
    commentReactions,
    { commentId: reaction.commentId, userId: reaction.userId, type: reaction.type, createdAt: reaction.now },
    isReactableSql,
  ).onConflictDoNothing(),
)
// Runs only when the insert just before wrote nothing: the reaction was already there.
const removeReaction = prepareStep((db) =>
  db.delete(commentReactions).where(and(sql`NOT ${wroteJustBefore}`, isOwnReaction, isReactableSql)),
)
const reactionAddedEvent = prepareEvent(sql`${isReactableSql} AND ${reactionExistsSql}`)
const reactionRemovedEvent = prepareEvent(sql`${isReactableSql} AND NOT ${reactionExistsSql}`)
const readReaction = prepareStep((db) =>
  db.select({ isActive: sql<number>`${reactionExistsSql}`.as('isActive') }).from(sql`(SELECT 1)`),
)

/**
 * Toggles the actor's reaction of one type, in one commit: the insert either adds the row or,
 * when it is already there, does nothing — then the delete removes it; the primary key keeps
 * concurrent toggles from ever counting a person twice.
 */
export async function toggleReaction(
  db: Database,
  actor: Actor,
  commentId: string,
  type: ReactionType,
): Promise<{ commentId: string; reactions: string; isActive: boolean }> {
  const { comment } = await findLiveComment(db, actor, commentId)
  const values = { ...visibilityParams(actor, comment.taskId), commentId, type, now: Date.now() }
  const reactionEvent = (isActive: boolean) => ({
    topic: 'comments' as const,
    type: 'reaction-changed' as const,
    taskId: comment.taskId,
    payload: { taskId: comment.taskId, commentId, userId: actor.id, type, isActive },
  })
  const { added, removed, state } = await commit(db, {
    added: addReaction(values),
    removed: removeReaction(values),
    addedEvent: reactionAddedEvent(reactionEvent(true), values),
    removedEvent: reactionRemovedEvent(reactionEvent(false), values),
    state: readReaction(values),
  })
  if (added.rowsAffected === 0 && removed.rowsAffected === 0) throw new NotFound(COMMENT_NOT_FOUND)
  const isActive = Boolean(state.rows[0]?.isActive)
  const { reactions } = await readComment(db, commentId)
  return { commentId, reactions, isActive }
}
