import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { events, versionCounters } from '~/db/schema'
import { NotFound } from './errors'
import type { Actor, Viewer } from './session-user'
import { isTaskVisibleSql, TASK_NOT_FOUND, visibilityParams } from './tasks/rule.server'
import { requireMembership } from './workspaces/membership.server'

/**
 * The versions of the reads pages poll, read without building the answer
 * (docs/decisions/028-reads-versioned-by-the-event-log.md). A version names one state of an
 * answer for one kind of viewer: two requests with the same version get the same answer, so
 * the RPC endpoint answers a matching `If-None-Match` with a 304, and may serve an answer it built
 * earlier under the same version. Each function checks access in the same statement: a version
 * is never handed to someone who may not read the answer.
 *
 * What an answer depends on, and what moves when it changes:
 * - a task's own rows, its comments, reactions, revisions, shares and visibility: every change
 *   appends an event with the task's id in its own transaction, so the task's newest event id
 *   moves; once pruning has removed all of a task's events, the newest id pruning deleted
 *   stands in (it is at least as new as any of them);
 * - what others see of a person (name, picture, address, its verification, the account itself):
 *   the `people` counter, bumped by triggers on `users` in the same statement;
 * - who is in which workspace, and with which role (whom a task list holds, whom one may mention):
 *   the `memberships` counter, bumped by triggers on `workspace_members` (drizzle/0014_workspaces.sql),
 *   so a person removed from a workspace is never told their older list is current;
 * - who asks, where the answer differs by viewer: their id is part of the version.
 *
 * The version is read before the answer is built, never after: an answer built later is at
 * least as new as its version, and a change after the version was read moves the version.
 *
 * What an answer is made of (its view's fields) is not here: the RPC endpoint puts the answer's shape
 * in front of the version in the ETag (app/rpc/versioned-reads.server.ts).
 */

const prunedEventsWatermark = sql`(SELECT ${versionCounters.value} FROM ${versionCounters} WHERE ${versionCounters.scope} = 'pruned-events')`
const membershipsCounter = sql<number>`(SELECT ${versionCounters.value} FROM ${versionCounters} WHERE ${versionCounters.scope} = 'memberships')`

/**
 * One statement for whether the viewer may see the task, its version and the people counter:
 * a few index lookups, prepared once.
 */
const taskVersionProbe = preparedPerDatabase((db) =>
  db
    .select({
      isVisible: isTaskVisibleSql,
      task: sql<number>`max(coalesce((SELECT max(${events.id}) FROM ${events} WHERE ${events.taskId} = ${sql.placeholder('taskId')}), 0), ${prunedEventsWatermark})`,
      people: versionCounters.value,
      memberships: membershipsCounter,
    })
    .from(versionCounters)
    .where(eq(versionCounters.scope, 'people'))
    .prepare(),
)

/**
 * The newest event id ever written (AUTOINCREMENT keeps it in `sqlite_sequence`, so pruning
 * never lowers it) and the people counter: the version of anything that may follow any event.
 */
const logVersionProbe = preparedPerDatabase((db) =>
  db
    .select({
      head: sql<number>`coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)`,
      people: versionCounters.value,
      memberships: membershipsCounter,
    })
    .from(versionCounters)
    .where(eq(versionCounters.scope, 'people'))
    .prepare(),
)

function versionOf(...parts: (string | number)[]) {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 27)
}

/**
 * `task.getAll` of one workspace the viewer is in (NotFound for any other, as for an unknown one):
 * the version of their whole list, and which workspace it is narrowed to.
 */
export async function workspaceTasksVersion(db: Database, viewer: Actor, workspaceId: string) {
  await requireMembership(db, viewer.id, workspaceId)
  return versionOf('task.getAll', workspaceId, await visibleTasksVersion(db, viewer))
}

/** The task's version and the people counter; NotFound when the viewer may not see the task. */
async function visibleTaskVersion(db: Database, viewer: Viewer, taskId: string) {
  const [row] = await taskVersionProbe(db).all(visibilityParams(viewer, taskId))
  if (Number(row?.isVisible) !== 1) throw new NotFound(TASK_NOT_FOUND)
  return {
    task: Number(row?.task ?? 0),
    people: Number(row?.people ?? 0),
    memberships: Number(row?.memberships ?? 0),
  }
}

/** `comments.getComments`: everyone who may see the task reads the same discussion. */
export async function discussionVersion(db: Database, viewer: Viewer, taskId: string) {
  const { task, people } = await visibleTaskVersion(db, viewer, taskId)
  return versionOf('comments.getComments', taskId, task, people)
}

/** `task.getTaskUsers`: whom one may mention depends on being the owner or a sharer, so per viewer. */
export async function mentionablesVersion(db: Database, viewer: Actor, taskId: string) {
  const { task, people, memberships } = await visibleTaskVersion(db, viewer, taskId)
  return versionOf('task.getTaskUsers', viewer.id, taskId, task, people, memberships)
}

/** `task.getAll`: every task the viewer may see, so any event may change it. */
export async function visibleTasksVersion(db: Database, viewer: Actor) {
  const [row] = await logVersionProbe(db).all()
  return versionOf(
    'task.getAll',
    viewer.id,
    Number(row?.head ?? 0),
    Number(row?.people ?? 0),
    Number(row?.memberships ?? 0),
  )
}
