import { and, eq, inArray, notInArray, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { taskShares, tasks, users } from '~/db/schema'
import { type Builder, commit, insertIf, wroteJustBefore } from '~/db/write.server'
import type { Status } from '~/domain/constants'
import { entitlementsFor, sharingLimitMessage } from '~/domain/entitlements'
import { appendEvent } from '~/events/log.server'
import { Conflict, Forbidden, Invalid, NotFound } from '../errors'
import type { Actor } from '../session-user'
import { personalWorkspaceId, requireMembership } from '../workspaces/membership.server'
import {
  assigneeMayBeSql,
  assignmentNoticeSteps,
  CANNOT_BE_ASSIGNED,
  cannotBeAssigned,
  checkAssignee,
  clearLostAssigneeStep,
  handBackTask,
} from './assignment.server'
import { readAudiences } from './audience.server'
import { editedColumns } from './fields.server'
import { getTask } from './reads.server'
import {
  inWorkspaceSql,
  NOT_ALLOWED,
  ruleOnTaskSql,
  ruleSql,
  TASK_NOT_FOUND,
  type TaskAudience,
  viewerValues,
  type WorkspaceAudience,
} from './rule.server'
import type { TaskFields, TaskUpdate } from './task-schemas'
import type { TaskView } from './view'

/**
 * Changing tasks. Every write checks access through getTask, the read the pages use, and is one
 * commit (app/db/write.server.ts); where the rule could change before the commit runs, the
 * statement carries it as its condition.
 */

async function requireOwner(
  db: Executor,
  actor: Actor,
  taskId: string,
  rule: 'change' | 'delete' = 'change',
) {
  const access = await getTask(db, actor, taskId)
  if (!access.may[rule]) throw new Forbidden(NOT_ALLOWED)
  return access.task
}

/**
 * A parent must be a top-level task of the subtask's workspace, which a subtask never leaves: one
 * level deep, so no cycles.
 */
async function checkParent(db: Executor, workspaceId: string, parentTaskId: string, childId?: string) {
  if (parentTaskId === childId)
    throw new Invalid('A task cannot be its own subtask.', [
      { path: ['parentTaskId'], message: 'A task cannot be its own subtask.' },
    ])
  const [parent] = await db
    .select({ workspaceId: tasks.workspaceId, parentTaskId: tasks.parentTaskId })
    .from(tasks)
    .where(eq(tasks.id, parentTaskId))
    .limit(1)
  if (!parent || parent.workspaceId !== workspaceId) {
    throw new Invalid('The parent must be one of your tasks.', [
      { path: ['parentTaskId'], message: 'The parent must be one of your tasks.' },
    ])
  }
  if (parent.parentTaskId) {
    throw new Invalid('Subtasks cannot have subtasks of their own.', [
      { path: ['parentTaskId'], message: 'Subtasks cannot have subtasks of their own.' },
    ])
  }
  if (childId) {
    const [child] = await db
      .select({ n: sql<number>`count(*)` })
      .from(tasks)
      .where(eq(tasks.parentTaskId, childId))
    if (Number(child?.n ?? 0) > 0) {
      throw new Invalid('A task with subtasks cannot become a subtask.', [
        { path: ['parentTaskId'], message: 'A task with subtasks cannot become a subtask.' },
      ])
    }
  }
}

async function checkShares(db: Executor, actor: Actor, emails: string[]) {
  if (emails.includes(actor.email.toLowerCase())) {
    throw new Invalid('You cannot share a task with yourself.', [
      { path: ['sharedWith'], message: 'You cannot share a task with yourself.' },
    ])
  }
  const [owner] = await db
    .select({ plan: users.plan, accessUntil: users.accessUntil })
    .from(users)
    .where(eq(users.id, actor.id))
  const { peoplePerSharedTask } = entitlementsFor(owner ?? { plan: 'free', accessUntil: null })
  if (emails.length > peoplePerSharedTask) {
    const message = sharingLimitMessage(peoplePerSharedTask)
    throw new Invalid(message, [{ path: ['sharedWith'], message }])
  }
}

/**
 * Makes a task's shares exactly `emails`, while `onlyIf` holds as the commit reaches them. Only the
 * shares that change are written: each written share re-indexes the task and its comments for
 * search (drizzle/0013_search_audience.sql), and the edit form sends every share with every edit.
 */
function replaceSharesSteps(db: Builder, taskId: string, emails: string[], onlyIf: SQL, now: Date) {
  const isDropped = emails.length > 0 ? notInArray(taskShares.email, emails) : undefined
  return {
    unshared: db.delete(taskShares).where(and(eq(taskShares.taskId, taskId), isDropped, onlyIf)),
    shared: emails.map((email) =>
      insertIf(db, taskShares, { taskId, email, createdAt: now }, onlyIf).onConflictDoNothing(),
    ),
  }
}

/** Whether the actor may still change the task (owns it) when the commit reaches this statement. */
function stillOwnedSql(actor: Actor, taskId: string) {
  return ruleOnTaskSql('change', viewerValues(actor), taskId)
}

/** One instant per write: a task created Completed was completed when it was created, to the millisecond. */
function completedAtFor(
  status: Status,
  previous: { status: Status; completedAt: string | Date | null } | null,
  now: Date,
) {
  if (status !== 'Completed') return null
  if (previous?.status === 'Completed' && previous.completedAt) return new Date(previous.completedAt)
  return now
}

export async function createTask(db: Database, actor: Actor, fields: TaskFields): Promise<TaskView> {
  const workspaceId = fields.workspaceId ?? personalWorkspaceId(actor)
  const members = await requireMembership(db, actor.id, workspaceId)
  await checkShares(db, actor, fields.sharedWith)
  if (fields.parentTaskId) await checkParent(db, workspaceId, fields.parentTaskId)
  const { assigneeId } = fields
  const audience: TaskAudience = {
    ownerId: actor.id,
    workspaceId,
    isPublic: fields.isPublic,
    sharedWith: fields.sharedWith,
    ...members,
  }
  if (assigneeId) await checkAssignee(db, audience, assigneeId)
  const id = crypto.randomUUID()
  // Every statement only while the creator is still in the workspace and the assignee may still
  // be assigned it (always when nobody is).
  const mayWrite = and(
    inWorkspaceSql(workspaceId, actor.id, false),
    assigneeMayBeSql(assigneeId, id, audience),
  ) as SQL
  const now = new Date()
  const { task } = await commit(db, {
    task: insertIf(
      db,
      tasks,
      {
        ...editedColumns(fields),
        assigneeId: assigneeId ?? null,
        id,
        userId: actor.id,
        workspaceId,
        completedAt: completedAtFor(fields.status, null, now),
        createdAt: now,
        updatedAt: now,
      },
      mayWrite,
    ),
    ...replaceSharesSteps(db, id, fields.sharedWith, mayWrite, now),
    notice: assignmentNoticeSteps(db, actor, null, { id, text: fields.text }, assigneeId, now),
    event: appendEvent(
      db,
      { topic: 'tasks', type: 'task-created', taskId: id, payload: { taskId: id, userId: actor.id } },
      mayWrite,
    ),
  })
  // The creator left the workspace, or the assignee's account went, between the checks and the commit.
  if (task.rowsAffected === 0) {
    await requireMembership(db, actor.id, workspaceId)
    throw cannotBeAssigned()
  }
  return (await getTask(db, actor, id)).task
}

export async function updateTask(
  db: Database,
  actor: Actor,
  taskId: string,
  changes: TaskUpdate,
): Promise<TaskView> {
  if (isHandingBack(changes) && !(await getTask(db, actor, taskId)).may.change) {
    return handBackTask(db, actor, taskId)
  }
  const before = await requireOwner(db, actor, taskId)
  const moves = changes.workspaceId !== undefined && changes.workspaceId !== before.workspaceId
  const workspaceId = changes.workspaceId ?? before.workspaceId
  const members = await requireMembership(db, actor.id, workspaceId)
  // Who was in the workspace it leaves, for the audience its event keeps (webhooks judge by it).
  const membersBefore = moves ? await requireMembership(db, actor.id, before.workspaceId) : members
  if (moves) checkMove(before, changes)
  if (changes.sharedWith) await checkShares(db, actor, changes.sharedWith)
  if (changes.parentTaskId) await checkParent(db, workspaceId, changes.parentTaskId, taskId)
  const { assigneeId } = changes
  const after: TaskAudience = {
    ownerId: before.userId,
    workspaceId,
    isPublic: changes.isPublic ?? before.isPublic,
    sharedWith: changes.sharedWith ?? before.sharedWith,
    ...members,
  }
  if (assigneeId) await checkAssignee(db, after, assigneeId)
  const status = changes.status ?? before.status
  const now = new Date()
  // Only the owner edits, and ownership never moves: what can change meanwhile is the task being
  // deleted, and then nothing here is written.
  // And it is assigned only if the assignee may still be, as the write leaves the task: every
  // statement carries both, so the shares never change without the assignment that needed them.
  const isOwned = and(
    stillOwnedSql(actor, taskId),
    moves ? inWorkspaceSql(workspaceId, actor.id, false) : undefined,
    assigneeMayBeSql(assigneeId, taskId, changes.sharedWith || moves ? after : undefined),
  ) as SQL
  const { task } = await commit(db, {
    ...(changes.sharedWith ? replaceSharesSteps(db, taskId, changes.sharedWith, isOwned, now) : {}),
    task: db
      .update(tasks)
      .set({
        ...editedColumns(changes),
        completedAt: completedAtFor(status, before, now),
        updatedAt: now,
      })
      .where(and(eq(tasks.id, taskId), isOwned)),
    // A subtask is always in its parent's workspace: they move together.
    subtasksMoved: moves
      ? db
          .update(tasks)
          .set({ workspaceId, updatedAt: now })
          .where(and(eq(tasks.parentTaskId, taskId), isOwned))
      : undefined,
    // Unshared with its assignee, or moved where they are not: the assignment goes in the same commit.
    lostAssignee: changes.sharedWith || moves ? clearLostAssigneeStep(db, taskId, now) : undefined,
    notice: assignmentNoticeSteps(
      db,
      actor,
      before,
      { id: taskId, text: changes.text ?? before.text },
      assigneeId,
      now,
    ),
    event: appendEvent(
      db,
      {
        topic: 'tasks',
        type: 'task-updated',
        taskId,
        payload: { taskId, userId: actor.id, ...audienceChange(before, changes, membersBefore) },
      },
      isOwned,
    ),
    statusEvent:
      changes.status && changes.status !== before.status
        ? appendEvent(
            db,
            {
              topic: 'tasks',
              type: 'task-status-changed',
              taskId,
              payload: { taskId, userId: actor.id, oldStatus: before.status, newStatus: changes.status },
            },
            isOwned,
          )
        : undefined,
  })
  if (task.rowsAffected === 0) {
    // Refused by a rule that changed since the checks above: gone, or the assignee unshared meanwhile.
    if (assigneeId && (await getTask(db, actor, taskId)).may.change) throw new Forbidden(CANNOT_BE_ASSIGNED)
    throw new NotFound(TASK_NOT_FOUND)
  }
  return (await getTask(db, actor, taskId)).task
}

/**
 * Who could see the task before a change that shares, unshares, publishes or hides it, under the
 * name a deletion's event uses for the same (streams never send it): webhooks judge each earlier
 * event by the audience it had (app/services/webhooks/fan-out.server.ts).
 */
function audienceChange(before: TaskView, changes: TaskUpdate, members: WorkspaceAudience) {
  const moves = changes.workspaceId !== undefined && changes.workspaceId !== before.workspaceId
  if (changes.sharedWith === undefined && changes.isPublic === undefined && !moves) return {}
  const audience: TaskAudience = {
    ownerId: before.userId,
    workspaceId: before.workspaceId,
    isPublic: before.isPublic,
    sharedWith: before.sharedWith,
    ...members,
  }
  return { audience }
}

/** A task moves to another of the editor's workspaces only as a whole: a subtask stays with its parent. */
function checkMove(before: TaskView, changes: TaskUpdate) {
  const parentTaskId = changes.parentTaskId === undefined ? before.parentTaskId : changes.parentTaskId
  if (parentTaskId) {
    const message = 'A subtask stays in its parent’s workspace.'
    throw new Invalid(message, [{ path: ['workspaceId'], message }])
  }
}

/** `{ assigneeId: null }` and nothing else: what an assignee may send to hand a task back. */
function isHandingBack(changes: TaskUpdate) {
  return (
    changes.assigneeId === null &&
    Object.entries(changes).every(([name, value]) => name === 'assigneeId' || value === undefined)
  )
}

/** The owner and the people it is shared with may move a task along. */
export async function setTaskStatus(
  db: Database,
  actor: Actor,
  taskId: string,
  status: Status,
): Promise<TaskView> {
  const access = await getTask(db, actor, taskId)
  if (!access.may.setStatus) throw new Forbidden(NOT_ALLOWED)
  const before = access.task
  if (before.status !== status) {
    const now = new Date()
    // The rule goes into the statement: a share revoked since the check above must not let
    // this change through.
    const { moved } = await commit(db, {
      moved: db
        .update(tasks)
        .set({ status, completedAt: completedAtFor(status, before, now), updatedAt: now })
        .where(and(eq(tasks.id, taskId), ruleSql('setStatus', viewerValues(actor)))),
      event: appendEvent(
        db,
        {
          topic: 'tasks',
          type: 'task-status-changed',
          taskId,
          payload: { taskId, userId: actor.id, oldStatus: before.status, newStatus: status },
        },
        wroteJustBefore,
      ),
    })
    if (moved.rowsAffected === 0) {
      // Why nothing moved, as a fresh read tells it: gone from sight, or no longer theirs to move.
      if ((await getTask(db, actor, taskId)).may.setStatus) throw new NotFound(TASK_NOT_FOUND)
      throw new Forbidden(NOT_ALLOWED)
    }
  }
  return (await getTask(db, actor, taskId)).task
}

/** Replaces the list of addresses a task is shared with. */
export async function shareTask(
  db: Database,
  actor: Actor,
  taskId: string,
  emails: string[],
): Promise<TaskView> {
  return updateTask(db, actor, taskId, { sharedWith: emails })
}

/** Deletes a task and, with it, its subtasks (the UI says so before asking). */
export async function deleteTask(db: Database, actor: Actor, taskId: string) {
  // A subtask added between the read and the commit keeps its parent (see below): read again.
  for (let attempt = 1; ; attempt++) {
    await requireOwner(db, actor, taskId, 'delete')
    if (await deleteTaskOnce(db, actor, taskId)) return
    if (attempt === 3) throw new Conflict('The task changed while it was being deleted. Please try again.')
  }
}

async function deleteTaskOnce(db: Database, actor: Actor, taskId: string) {
  const subtaskIds = (
    await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.parentTaskId, taskId))
  ).map(({ id }) => id)
  // Who could see each task, read before it goes: streams decide from it who hears of the
  // deletion, as there is no task left to ask.
  const audiences = await readAudiences(db, [taskId, ...subtaskIds])
  const deletedEvent = (id: string, onlyIf: SQL) =>
    appendEvent(
      db,
      {
        topic: 'tasks',
        type: 'task-deleted',
        taskId: id,
        payload: { taskId: id, userId: actor.id, audience: audiences.get(id) },
      },
      onlyIf,
    )
  const isOwned = ruleOnTaskSql('delete', viewerValues(actor), taskId)
  const { task } = await commit(db, {
    // Subtasks first, each with its event: deleting the parent first would let the foreign key
    // cascade remove them unseen. Only those read above, whose audiences the events carry.
    subtaskEvents: subtaskIds.map((id) =>
      deletedEvent(id, sql`${isOwned} AND EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${id})`),
    ),
    subtasks: db
      .delete(tasks)
      .where(and(eq(tasks.parentTaskId, taskId), inArray(tasks.id, subtaskIds), isOwned)),
    // The parent goes only when no subtask is left that the events above did not announce.
    task: db
      .delete(tasks)
      .where(
        and(
          eq(tasks.id, taskId),
          ruleSql('delete', viewerValues(actor)),
          sql`NOT EXISTS (SELECT 1 FROM ${tasks} c WHERE c.parent_task_id = ${taskId})`,
        ),
      ),
    event: deletedEvent(taskId, wroteJustBefore),
  })
  return task.rowsAffected > 0
}
