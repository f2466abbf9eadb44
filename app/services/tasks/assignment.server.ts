import { and, eq, isNotNull, not, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { notifications, tasks, users } from '~/db/schema'
import { type Builder, commit, insertIf, type Step, wroteJustBefore } from '~/db/write.server'
import { appendEvent } from '~/events/log.server'
import { Forbidden, Invalid } from '../errors'
import { prepareMentionEmailJob } from '../mention-emails.server'
import type { Actor } from '../session-user'
import { getTask } from './reads.server'
import {
  NOT_ALLOWED,
  personInSql,
  ruleHolds,
  ruleOnTaskSql,
  ruleOverAudienceSql,
  type TaskAudience,
  viewerValues,
} from './rule.server'
import type { TaskView } from './view'

/**
 * Assigning a task (docs/product-rules.md §1): to its owner or to a person it is shared with who
 * verified that address (`TASK_RULES.beAssigned`), never to someone who sees it only because it
 * is public. Only the owner assigns; the assignee may hand it back, the one change they may make.
 * Unsharing a task with its assignee clears the assignment in the same commit, and being assigned
 * by someone else notifies the person as a mention does.
 *
 * The owner's write checks the rule before (for a clear message) and carries it as the condition
 * of every statement it commits (`assigneeMayBeSql`), shares included: an assignee who could no
 * longer be assigned when the commit runs leaves the task as it was, not half changed.
 */

export const CANNOT_BE_ASSIGNED = 'That person cannot be assigned this task.'

export function cannotBeAssigned(): Invalid {
  return new Invalid(CANNOT_BE_ASSIGNED, [{ path: ['assigneeId'], message: CANNOT_BE_ASSIGNED }])
}

/**
 * Refuses an assignee the rule would refuse once the write's shares are in place: the owner, or
 * a person with a verified address among those the task will be shared with (`task`, as the write leaves it).
 */
export async function checkAssignee(db: Executor, task: TaskAudience, assigneeId: string) {
  const [person] = await db
    .select({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, assigneeId))
    .limit(1)
  const candidate = person && {
    id: person.id,
    email: person.email,
    emailVerified: person.emailVerifiedAt !== null,
  }
  if (!candidate || !ruleHolds('beAssigned', task, candidate)) {
    throw cannotBeAssigned()
  }
}

/**
 * The condition every statement of a write of `assigneeId` carries (`1` when it assigns nobody):
 * the person may be assigned the task as the commit reaches it. When the write sets the task's
 * shares, `leaves` is the audience it gives the task, known before any statement runs, so the
 * shares themselves are written only with the assignment they allow; otherwise the task's shares
 * are read as they are then (one removed meanwhile refuses the assignment).
 */
export function assigneeMayBeSql(
  assigneeId: string | null | undefined,
  taskId: string,
  leaves?: TaskAudience,
): SQL {
  if (!assigneeId) return sql`1`
  const person = personInSql(assigneeId)
  return leaves
    ? ruleOverAudienceSql('beAssigned', leaves, person)
    : ruleOnTaskSql('beAssigned', person, taskId)
}

/**
 * Clears the assignment when its assignee may no longer be assigned: a step after any change of
 * the task's shares, so an unsharing and the cleared assignment are one commit.
 */
export function clearLostAssigneeStep(db: Builder, taskId: string, now: Date) {
  return db
    .update(tasks)
    .set({ assigneeId: null, updatedAt: now })
    .where(
      and(
        eq(tasks.id, taskId),
        isNotNull(tasks.assigneeId),
        not(ruleOnTaskSql('beAssigned', personInSql(tasks.assigneeId), taskId)),
      ),
    )
}

const assignmentHeldSql = sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${sql.placeholder('taskId')} AND ${tasks.assigneeId} = ${sql.placeholder('recipientId')})`
const assignmentEmailJob = prepareMentionEmailJob(assignmentHeldSql)

/**
 * The notice of an assignment, for the commit that makes it: a notification of type
 * 'assignment', the notification event the person's toasts listen to (a `mention`, as every
 * notification's), and the away-from-keyboard e-mail — each only if the task is, as the commit
 * reaches it, assigned to them. Assigning yourself, or keeping the same assignee, notifies nobody.
 */
export function assignmentNoticeSteps(
  db: Builder,
  actor: Actor,
  before: Pick<TaskView, 'id' | 'text' | 'assigneeId'> | null,
  task: { id: string; text: string },
  assigneeId: string | null | undefined,
  now: Date,
): Step[] {
  if (!assigneeId || assigneeId === actor.id || assigneeId === before?.assigneeId) return []
  const notificationId = crypto.randomUUID()
  const held = sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${and(eq(tasks.id, task.id), eq(tasks.assigneeId, assigneeId))})`
  return [
    insertIf(
      db,
      notifications,
      {
        id: notificationId,
        recipientId: assigneeId,
        taskId: task.id,
        commentId: null,
        type: 'assignment',
        fromUserId: actor.id,
        content: task.text,
        isRead: false,
        emailedAt: null,
        createdAt: now,
      },
      held,
    ),
    appendEvent(
      db,
      {
        topic: 'comments',
        type: 'mention',
        taskId: task.id,
        payload: { taskId: task.id, notificationId, recipientId: assigneeId, fromUserId: actor.id },
      },
      held,
    ),
    assignmentEmailJob(assigneeId, { taskId: task.id }, now.getTime()),
  ]
}

/**
 * The assignee hands the task back (`assigneeId: null`): the one change someone other than the
 * owner may make to it, and only while it is theirs and they may still see it.
 */
export async function handBackTask(db: Database, actor: Actor, taskId: string): Promise<TaskView> {
  const access = await getTask(db, actor, taskId)
  if (access.task.assigneeId !== actor.id) throw new Forbidden(NOT_ALLOWED)
  const { handedBack } = await commit(db, {
    handedBack: db
      .update(tasks)
      .set({ assigneeId: null, updatedAt: new Date() })
      .where(
        and(
          eq(tasks.id, taskId),
          eq(tasks.assigneeId, actor.id),
          ruleOnTaskSql('see', viewerValues(actor), taskId),
        ),
      ),
    event: appendEvent(
      db,
      { topic: 'tasks', type: 'task-updated', taskId, payload: { taskId, userId: actor.id } },
      wroteJustBefore,
    ),
  })
  if (handedBack.rowsAffected === 0) {
    // Why nothing changed, as a fresh read tells it: gone from sight (NotFound), or no longer theirs.
    await getTask(db, actor, taskId)
    throw new Forbidden(NOT_ALLOWED)
  }
  return (await getTask(db, actor, taskId)).task
}
