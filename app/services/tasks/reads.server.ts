import { and, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { taskShares, tasks, users, workspaceMembers } from '~/db/schema'
import { managesWorkspace, type WorkspaceRole } from '~/domain/workspaces'
import { NotFound } from '../errors'
import type { Actor, Viewer } from '../session-user'
import { requireMembership } from '../workspaces/membership.server'
import { taskViewColumns } from './columns.server'
import {
  inWorkspaceSql,
  isTaskVisibleSql,
  type Permissions,
  permissionsOf,
  personInSql,
  ruleOnTaskSql,
  ruleSql,
  TASK_NOT_FOUND,
  type TaskAudience,
  viewerValues,
  visibilityParams,
} from './rule.server'
import type { TaskView } from './view'

/** Reading tasks: one task with what its viewer may do, its subtasks, and task.getAll's list. */

/** A task as the viewer may read it, and every rule decided for them (`may.change`, `may.setStatus`, …). */
export type Access = { task: TaskView; may: Permissions }

/** An address a task is shared with, and its owner's name once they verified it. */
type Share = { email: string; name: string | null }

/**
 * One statement for any list: the owner's name joined, the shares with their names and the
 * subtask progress as correlated subqueries on indexed columns (columns.server.ts) — no query
 * per task.
 */
function selectTaskViews(db: Executor, viewer: Viewer, where: SQL | undefined) {
  return db
    .select({ ...taskViewColumns(viewerValues(viewer)), viewerRole: viewerRoleSql(viewer) })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(where)
}
export type TaskRow = Awaited<ReturnType<typeof selectTaskViews>>[number]

const sharesOf = (row: TaskRow) => JSON.parse(row.shares) as Share[]

/** The viewer's role in the task's workspace, read with the row; null when they are not in it. */
function viewerRoleSql(viewer: Viewer) {
  if (!viewer) return sql<WorkspaceRole | null>`NULL`
  return sql<WorkspaceRole | null>`(SELECT ${workspaceMembers.role} FROM ${workspaceMembers} WHERE ${and(eq(workspaceMembers.workspaceId, tasks.workspaceId), eq(workspaceMembers.userId, viewer.id))})`
}

/**
 * The task's audience as this viewer stands in it, from the row already read: the workspace's
 * members are known only as far as the viewer is one of them, which is all deciding the rules
 * for this viewer asks.
 */
function audienceOfRow(row: TaskRow, viewer: Viewer): TaskAudience {
  const role = viewer ? row.viewerRole : null
  return {
    ownerId: row.userId,
    workspaceId: row.workspaceId,
    isPublic: row.isPublic,
    sharedWith: sharesOf(row).map((share) => share.email),
    members: role && viewer ? [viewer.id] : [],
    admins: role && viewer && managesWorkspace(role) ? [viewer.id] : [],
  }
}

/**
 * A task as this viewer may read it. Whom a task is shared with is the owner's to know
 * (`TASK_RULES.seeShares`): the owner gets every address (and a name for each that has a verified
 * account); anyone else — a person it is shared with, a signed-in stranger, a visitor of a public
 * task — gets only the names of verified accounts, and no address at all
 * (docs/decisions/020-who-sees-whom.md).
 */
function toView(row: TaskRow, may: Pick<Permissions, 'seeShares'>): TaskView {
  const { shares: _shares, viewerRole: _role, ...fields } = row
  const shares = sharesOf(row)
  return {
    ...fields,
    ownerName: row.ownerName || 'Unknown User',
    sharedWith: may.seeShares ? shares.map((share) => share.email) : [],
    sharedWithNames: may.seeShares
      ? shares.map((share) => share.name ?? share.email)
      : shares.flatMap((share) => (share.name ? [share.name] : [])),
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    subtaskCount: Number(row.subtaskCount),
    subtasksCompleted: Number(row.subtasksCompleted),
  }
}

/** What the viewer may do with the task, by the rules, from the row already read; null when they may not see it. */
function accessOf(row: TaskRow, viewer: Viewer): Access | null {
  const may = permissionsOf(audienceOfRow(row, viewer), viewer)
  return may.see ? { task: toView(row, may), may } : null
}

/** The task as the viewer may read it, for a read whose statement keeps only what they may see. */
function viewOf(row: TaskRow, viewer: Viewer): TaskView {
  return toView(row, permissionsOf(audienceOfRow(row, viewer), viewer))
}

/** A task with what the viewer may do with it; NotFound when they may not see it. */
export async function getTask(db: Executor, viewer: Viewer, taskId: string): Promise<Access> {
  const [row] = await selectTaskViews(db, viewer, eq(tasks.id, taskId)).limit(1)
  const access = row ? accessOf(row, viewer) : null
  if (!access) throw new NotFound(TASK_NOT_FOUND)
  return access
}

export async function listSubtasks(db: Executor, viewer: Viewer, parentTaskId: string) {
  const { task } = await getTask(db, viewer, parentTaskId)
  const rows = await selectTaskViews(db, viewer, eq(tasks.parentTaskId, task.id)).orderBy(tasks.createdAt)
  // A subtask is a task of its own: seeing the parent does not open subtasks not shared too.
  return rows.flatMap((row) => accessOf(row, viewer)?.task ?? [])
}

/** What the task modal shows: the task, its visible subtasks, and what the viewer may do. */
export async function getTaskDetails(db: Database, viewer: Viewer, taskId: string) {
  const access = await getTask(db, viewer, taskId)
  const subtasks = access.task.subtaskCount > 0 ? await listSubtasks(db, viewer, taskId) : []
  return {
    task: access.task,
    subtasks,
    // The owner's edit view offers them; nobody else learns who they are.
    assignable: access.may.change ? await listAssignable(db, access.task) : [],
    isAssignee: !access.may.change && viewer !== null && access.task.assigneeId === viewer.id,
    isOwner: access.may.change,
    canSetStatus: access.may.setStatus,
    isSignedIn: viewer !== null,
  }
}

/** Someone a task may be assigned to, as the owner's "Assignee" list names them. */
export type Assignable = { id: string; name: string }

/**
 * Exactly the people the task may be assigned to (`TASK_RULES.beAssigned`): its creator first, then
 * its workspace's other members and the verified people it is shared with, by name. Only the
 * members and the accounts of the shares' addresses (matched in any case, as accounts keep the case they signed up with) are candidates;
 * the rule decides among them.
 */
export async function listAssignable(
  db: Executor,
  task: Pick<TaskView, 'id' | 'userId' | 'workspaceId'>,
): Promise<Assignable[]> {
  const sharedWith = db
    .select({ email: taskShares.email })
    .from(taskShares)
    .where(eq(taskShares.taskId, task.id))
  const members = db
    .select({ id: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, task.workspaceId))
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(
      and(
        or(inArray(users.id, members), inArray(sql`lower(${users.email})`, sharedWith)),
        ruleOnTaskSql('beAssigned', personInSql(users.id), task.id),
      ),
    )
    .orderBy(users.name)
  const owner = rows.filter((row) => row.id === task.userId)
  const others = rows.filter((row) => row.id !== task.userId)
  return [...owner, ...others].map((row) => ({ id: row.id, name: row.name || row.email }))
}

const visibleTaskProbe = preparedPerDatabase((db) =>
  db.select({ isVisible: isTaskVisibleSql }).from(sql`(SELECT 1)`).prepare(),
)

/** Whether the viewer may see the task, without reading it: one prepared probe. */
export async function canSeeTask(db: Database, viewer: Viewer, taskId: string): Promise<boolean> {
  const [row] = await visibleTaskProbe(db).all(visibilityParams(viewer, taskId))
  return Number(row?.isVisible) === 1
}

/**
 * task.getAll: every task the viewer may see — own, shared with them, others' public — or, given
 * one of their workspaces, only that workspace's; one they are not in answers as an unknown one.
 */
export async function listVisibleTasks(db: Database, viewer: Actor, workspaceId?: string) {
  if (workspaceId !== undefined) await requireMembership(db, viewer.id, workspaceId)
  const inWorkspace = workspaceId === undefined ? undefined : eq(tasks.workspaceId, workspaceId)
  const rows = await selectTaskViews(
    db,
    viewer,
    and(ruleSql('see', viewerValues(viewer)), inWorkspace),
  ).orderBy(desc(tasks.createdAt))
  return rows.map((row) => viewOf(row, viewer))
}

/**
 * The workspace's task completed last, or created last (a subtask counts: it opens in the modal
 * like any task), as the list shows it; null when there is none, or the viewer is not in the
 * workspace. Both orders ride an index.
 */
export async function findLatestTask(
  db: Database,
  viewer: Actor,
  workspaceId: string,
  by: 'completed' | 'created',
) {
  const inWorkspace = and(eq(tasks.workspaceId, workspaceId), inWorkspaceSql(workspaceId, viewer.id, false))
  const [row] =
    by === 'completed'
      ? await selectTaskViews(db, viewer, and(inWorkspace, isNotNull(tasks.completedAt)))
          .orderBy(desc(tasks.completedAt), desc(tasks.id))
          .limit(1)
      : await selectTaskViews(db, viewer, inWorkspace).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(1)
  return row ? viewOf(row, viewer) : null
}

const parentCandidates = preparedPerDatabase((db) =>
  db
    .select({ id: tasks.id, text: tasks.text })
    .from(tasks)
    .where(and(eq(tasks.workspaceId, sql.placeholder('workspaceId')), sql`${tasks.parentTaskId} IS NULL`))
    .orderBy(desc(tasks.createdAt))
    .limit(100)
    .prepare(),
)

/** The workspace's top-level tasks a new subtask may hang under (for the parent picker). */
export async function listParentCandidates(db: Database, workspaceId: string) {
  return parentCandidates(db).all({ workspaceId })
}
