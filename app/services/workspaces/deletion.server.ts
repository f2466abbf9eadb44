import { and, desc, eq, inArray, notExists, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Database } from '~/db/client.server'
import { events, taskShares, tasks, workspaceInvitations, workspaceMembers, workspaces } from '~/db/schema'
import { type Builder, commit } from '~/db/write.server'
import { appendAccessChanged, appendEvent } from '~/events/log.server'
import { type JobHandler, scheduleJob } from '~/jobs/jobs.server'
import { z } from '~/utils/zod'
import { readAudiences } from '../tasks/audience.server'
import { fallBackToPersonalStep } from './membership.server'

/**
 * Deleting a workspace, in two parts. At once, in one commit: its member rows go, so it is gone
 * for every member (no list, page or rule finds a workspace one is not in, and its tasks are no
 * longer theirs to see), its pending invitations go, so nobody can join it, its address is freed,
 * and every session working in it falls back to its person's personal workspace. Then a job
 * deletes its tasks — with their comments, reactions, shares and events — a batch per commit, so
 * no one statement holds the database for all of them (a task's rows cascade from it; deleting
 * the workspace row first would cascade every task in one statement), and the workspace row last.
 *
 * The tasks that others may still see until they go — public ones and those shared with someone —
 * go first. Each deletion logs its `task-deleted` event with the audience the task had before the
 * workspace went, so open lists, discussions and webhooks hear of it as of any deletion.
 */

export const WORKSPACE_DELETION_JOB = 'workspace-deletion'

/** Tasks per commit; a run deletes at most `BATCHES_PER_RUN` batches, then queues itself again. */
const BATCH_SIZE = 500
const BATCHES_PER_RUN = 10

/**
 * The address a workspace being deleted holds: longer than any address a person may choose
 * (`WorkspaceSlugSchema`), so theirs is free at once and this one is never taken. It also marks
 * the workspace as being deleted for the statements of the commit that starts it.
 */
function deletedSlug(workspaceId: string) {
  return sql`'deleted-' || ${workspaceId}`
}

const isBeingDeleted = (workspaceId: string) =>
  sql`EXISTS (SELECT 1 FROM ${workspaces} WHERE ${and(eq(workspaces.id, workspaceId), eq(workspaces.slug, deletedSlug(workspaceId)))})`

const DeletionSchema = z.object({
  workspaceId: z.string(),
  /** Who deleted it: the `userId` of each task's `task-deleted` event. */
  deletedBy: z.string(),
  /** Its members and admins as the deletion found them, for the audience of those events. */
  members: z.array(z.string()),
  admins: z.array(z.string()),
})
export type Deletion = z.infer<typeof DeletionSchema>

function deletionJob(deletion: Deletion, runAt: Date) {
  return {
    id: `${WORKSPACE_DELETION_JOB}:${deletion.workspaceId}`,
    type: WORKSPACE_DELETION_JOB,
    payload: deletion,
    runAt,
  }
}

/**
 * The commit that deletes a workspace for everyone at once and queues the rest, every statement
 * only while `mayDelete` holds as the commit reaches the first: the deleter still its owner, the
 * name typed still its name. Its first step's outcome (`marked`) says whether it did.
 */
export function startDeletionSteps(db: Builder, deletion: Deletion, mayDelete: SQL, now: Date) {
  const { workspaceId } = deletion
  const started = isBeingDeleted(workspaceId)
  return {
    marked: db
      .update(workspaces)
      .set({ slug: deletedSlug(workspaceId) })
      .where(and(eq(workspaces.id, workspaceId), mayDelete)),
    // Every member's open pages hear it, as no event of its tasks reaches them any more.
    told: appendAccessChanged(db, and(eq(workspaceMembers.workspaceId, workspaceId), started) as SQL),
    members: db.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), started)),
    invitations: db
      .delete(workspaceInvitations)
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), started)),
    sessions: fallBackToPersonalStep(db, workspaceId, undefined, started),
    job: scheduleJob(db, deletionJob(deletion, now), started),
  }
}

const child = alias(tasks, 'child')
const isSeenByOthers = sql`(${tasks.isPublic} = 1 OR EXISTS (SELECT 1 FROM ${taskShares} WHERE ${eq(taskShares.taskId, tasks.id)}))`

/**
 * One batch: up to `batchSize` tasks without subtasks left (so no deletion cascades to a task its
 * events do not announce), those others may see first, each with its `task-deleted` event and
 * its older events gone. With no task left, the workspace row goes. Answers whether any is left.
 */
async function deleteBatch(db: Database, deletion: Deletion, batchSize: number): Promise<'more' | 'done'> {
  const { workspaceId, deletedBy, members, admins } = deletion
  const batch = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(
      and(
        eq(tasks.workspaceId, workspaceId),
        notExists(db.select({ id: child.id }).from(child).where(eq(child.parentTaskId, tasks.id))),
      ),
    )
    .orderBy(desc(isSeenByOthers))
    .limit(batchSize)
  if (batch.length === 0) {
    const { workspace } = await commit(db, {
      workspace: db
        .delete(workspaces)
        .where(
          and(
            isBeingDeleted(workspaceId),
            eq(workspaces.id, workspaceId),
            notExists(db.select({ id: tasks.id }).from(tasks).where(eq(tasks.workspaceId, workspaceId))),
          ),
        ),
    })
    if (workspace.rowsAffected > 0) return 'done'
    // Already gone (a run before this one), or a task still in it: then another batch.
    const [left] = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
    return left ? 'more' : 'done'
  }
  const ids = batch.map(({ id }) => id)
  const audiences = await readAudiences(db, ids)
  await commit(db, {
    olderEvents: db.delete(events).where(inArray(events.taskId, ids)),
    deletedEvents: ids.map((taskId) =>
      appendEvent(
        db,
        {
          topic: 'tasks',
          type: 'task-deleted',
          taskId,
          payload: { taskId, userId: deletedBy, audience: { ...audiences.get(taskId), members, admins } },
        },
        // Not for a task gone meanwhile (its creator's account deleted, which takes their tasks).
        sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${eq(tasks.id, taskId)})`,
      ),
    ),
    tasks: db.delete(tasks).where(and(inArray(tasks.id, ids), eq(tasks.workspaceId, workspaceId))),
  })
  return 'more'
}

/**
 * The job: a few batches, each its own commit, then it queues itself again for the rest, so other
 * writes go in between; done once the workspace row is gone.
 */
export function workspaceDeletionHandler({
  batchSize = BATCH_SIZE,
  batchesPerRun = BATCHES_PER_RUN,
} = {}): JobHandler {
  return async (db, payload, now) => {
    const deletion = DeletionSchema.parse(payload)
    for (let run = 0; run < batchesPerRun; run++) {
      if ((await deleteBatch(db, deletion, batchSize)) === 'done') return 'done'
    }
    await commit(db, { again: scheduleJob(db, deletionJob(deletion, now)) })
    return 'more'
  }
}
