import { and, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm'
import { rowsAffected, type Statement, writeBatch, wroteJustBefore } from '~/db/batch.server'
import type { Database, Executor } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { type Task, taskShares, tasks, users } from '~/db/schema'
import type { Priority, Status } from '~/domain/constants'
import { entitlementsFor, sharingLimitMessage } from '~/domain/entitlements'
import { appendEventStatement } from '~/events/log.server'
import { Conflict, Forbidden, Invalid, NotFound } from './errors'
import type { SessionUser } from './session-user'
import { readAudiences } from './task-audience.server'
import type { TaskFields, TaskUpdate } from './task-schemas'

/**
 * The rules of tasks, in one place (docs/product-rules.md §1):
 * - a task is visible to its owner, to users it is shared with once they verified that e-mail,
 *   and to anyone when public (read-only for visitors who are not signed in);
 * - only the owner edits, shares, publishes or deletes; shared users may also change the status;
 * - whom a task is shared with is the owner's to know: others see names, never addresses;
 * - a task nobody may see answers 'Task not found' — never a hint that it exists; a visible task
 *   someone may not change answers 'Unauthorized to view this task' (FORBIDDEN);
 * - every change appends its event in the same transaction.
 *
 * Reads and writes share this file on purpose, past the ~300 lines we aim for: every write
 * checks access through the same visibility queries the reads use, and one file keeps the rules
 * above in one place instead of two that must agree.
 */

export const TASK_NOT_FOUND = 'Task not found'
export const NOT_ALLOWED = 'Unauthorized to view this task'

/** The wire shape RPC clients rely on (docs/product-rules.md §5), plus what the list shows of subtasks. */
export type TaskView = {
  id: string
  text: string
  details: string | null
  refLink: string | null
  priority: Priority
  status: Status
  isPublic: boolean
  parentTaskId: string | null
  sharedWith: string[]
  sharedWithNames: string[]
  ownerName: string
  hrs: number
  userId: string
  completedAt: string | null
  createdAt: string
  updatedAt: string
  subtaskCount: number
  subtasksCompleted: number
}

export type Viewer = Pick<SessionUser, 'id' | 'email' | 'emailVerified'> | null

export type Access = {
  task: TaskView
  isOwner: boolean
  isShared: boolean
  canEdit: boolean
  canSetStatus: boolean
}

// ── Reading ─────────────────────────────────────────────────────────────────

/** The e-mail through which shares reach this viewer: only a verified one counts. */
function shareEmail(viewer: Viewer) {
  return viewer?.emailVerified ? viewer.email.toLowerCase() : null
}

/** An address a task is shared with, and its owner's name once they verified it. */
type Share = { email: string; name: string | null }

/**
 * One statement for any list: the owner's name joined, the shares with their names and the
 * subtask progress as correlated subqueries on indexed columns — no query per task. Progress
 * counts only the subtasks this viewer may open, so a public parent does not reveal how many
 * private subtasks it has.
 */
function selectTaskViews(db: Executor, viewer: Viewer, where: SQL | undefined) {
  const visibleSubtask = subtaskVisibleToSql(viewer)
  return db
    .select({
      id: tasks.id,
      text: tasks.text,
      details: tasks.details,
      refLink: tasks.refLink,
      priority: tasks.priority,
      status: tasks.status,
      isPublic: tasks.isPublic,
      parentTaskId: tasks.parentTaskId,
      hrs: tasks.hrs,
      userId: tasks.userId,
      completedAt: tasks.completedAt,
      createdAt: tasks.createdAt,
      updatedAt: tasks.updatedAt,
      ownerName: users.name,
      shares: sql<string>`(SELECT json_group_array(json_object('email', s.email, 'name', CASE WHEN u.email_verified_at IS NOT NULL AND u.name <> '' THEN u.name END)) FROM ${taskShares} s LEFT JOIN ${users} u ON u.email = s.email WHERE s.task_id = ${tasks.id})`,
      subtaskCount: sql<number>`(SELECT count(*) FROM ${tasks} c WHERE c.parent_task_id = ${tasks.id} AND ${visibleSubtask})`,
      subtasksCompleted: sql<number>`(SELECT count(*) FROM ${tasks} c WHERE c.parent_task_id = ${tasks.id} AND c.status = 'Completed' AND ${visibleSubtask})`,
    })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(where)
}

/** The visibility rule above, for a subtask row aliased `c` inside the progress subqueries. */
function subtaskVisibleToSql(viewer: Viewer) {
  const email = shareEmail(viewer)
  return sql`(c.is_public = 1${viewer ? sql` OR c.user_id = ${viewer.id}` : sql``}${
    email ? sql` OR c.id IN (SELECT s.task_id FROM ${taskShares} s WHERE s.email = ${email})` : sql``
  })`
}

type TaskRow = Awaited<ReturnType<typeof selectTaskViews>>[number]

const sharesOf = (row: TaskRow) => JSON.parse(row.shares) as Share[]

/**
 * A task as this viewer may read it. Whom a task is shared with is the owner's to know: the
 * owner gets every address (and a name for each that has a verified account); anyone else —
 * a person it is shared with, a signed-in stranger, a visitor of a public task — gets only the
 * names of verified accounts, and no address at all (docs/decisions/020-who-sees-whom.md).
 */
function toView(row: TaskRow, viewer: Viewer): TaskView {
  const { shares: _shares, ...fields } = row
  const shares = sharesOf(row)
  const isOwner = viewer?.id === row.userId
  return {
    ...fields,
    ownerName: row.ownerName || 'Unknown User',
    sharedWith: isOwner ? shares.map((share) => share.email) : [],
    sharedWithNames: isOwner
      ? shares.map((share) => share.name ?? share.email)
      : shares.flatMap((share) => (share.name ? [share.name] : [])),
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    subtaskCount: Number(row.subtaskCount),
    subtasksCompleted: Number(row.subtasksCompleted),
  }
}

function accessOf(row: TaskRow, viewer: Viewer): Access | null {
  const isOwner = viewer?.id === row.userId
  const email = shareEmail(viewer)
  const isShared = !isOwner && email !== null && sharesOf(row).some((share) => share.email === email)
  if (!isOwner && !isShared && !row.isPublic) return null
  return { task: toView(row, viewer), isOwner, isShared, canEdit: isOwner, canSetStatus: isOwner || isShared }
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
    isOwner: access.isOwner,
    canSetStatus: access.canSetStatus,
    isSignedIn: viewer !== null,
  }
}

export type TaskFilters = { status?: Status; priority?: Priority }

/** Tasks shared with the viewer's verified address, as a condition on `tasks` (the dashboard counts them too). */
export function sharedWithViewerSql(viewer: Viewer) {
  const email = shareEmail(viewer)
  if (!email) return sql`0`
  return inArray(tasks.id, sharedTaskIdsSql(email))
}

function sharedTaskIdsSql(email: string) {
  return sql`(SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${taskShares.email} = ${email})`
}

/** What a row of the task list shows, and nothing more: the page sends every field it is given. */
export type TaskListItem = Pick<
  TaskView,
  | 'id'
  | 'text'
  | 'priority'
  | 'status'
  | 'hrs'
  | 'isPublic'
  | 'ownerName'
  | 'subtaskCount'
  | 'subtasksCompleted'
>

export type TaskGroups = {
  mine: { tasks: TaskListItem[]; total: number }
  shared: TaskListItem[]
  public: TaskListItem[]
}

/** The placeholders of the task list's statements, filled by `listParams`. */
const list = {
  viewerId: sql.placeholder('viewerId'),
  email: sql.placeholder('email'),
  status: sql.placeholder('status'),
  priority: sql.placeholder('priority'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
}

/**
 * The task list's four statements for one filter shape (which of status and priority is set),
 * built with placeholders. The viewer's unverified or absent address is NULL, which equals
 * nothing, so one statement serves every viewer; only the shape changes the SQL, so there are at
 * most four sets per database, each built on first use.
 */
function buildListStatements(db: Database, shape: FilterShape) {
  const filter = and(
    shape.hasStatus ? eq(tasks.status, list.status) : undefined,
    shape.hasPriority ? eq(tasks.priority, list.priority) : undefined,
  )
  const topLevel = sql`${tasks.parentTaskId} IS NULL`
  const sharedWithViewer = sql`${tasks.id} IN (SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${taskShares.email} = ${list.email})`
  const mineWhere = and(eq(tasks.userId, list.viewerId), topLevel, filter)
  const othersWhere = sql`${tasks.userId} <> ${list.viewerId}`
  return {
    mine: selectListItems(db, mineWhere)
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(list.limit)
      .offset(list.offset)
      .prepare(),
    mineCount: db.select({ total: sql<number>`count(*)` }).from(tasks).where(mineWhere).prepare(),
    shared: selectListItems(db, and(othersWhere, sharedWithViewer, filter))
      .orderBy(desc(tasks.createdAt))
      .limit(200)
      .prepare(),
    public: selectListItems(
      db,
      and(eq(tasks.isPublic, true), othersWhere, topLevel, filter, sql`NOT ${sharedWithViewer}`),
    )
      .orderBy(desc(tasks.createdAt))
      .limit(200)
      .prepare(),
  }
}

/**
 * A list row: the owner's name joined and the subtask progress as correlated subqueries on
 * indexed columns, counting only the subtasks this viewer may open (as `selectTaskViews` does).
 */
function selectListItems(db: Database, where: SQL | undefined) {
  const visibleSubtask = sql`(c.is_public = 1 OR c.user_id = ${list.viewerId} OR c.id IN (SELECT s.task_id FROM ${taskShares} s WHERE s.email = ${list.email}))`
  return db
    .select({
      id: tasks.id,
      text: tasks.text,
      priority: tasks.priority,
      status: tasks.status,
      hrs: tasks.hrs,
      isPublic: tasks.isPublic,
      ownerName: users.name,
      subtaskCount: sql<number>`(SELECT count(*) FROM ${tasks} c WHERE c.parent_task_id = ${tasks.id} AND ${visibleSubtask})`,
      subtasksCompleted: sql<number>`(SELECT count(*) FROM ${tasks} c WHERE c.parent_task_id = ${tasks.id} AND c.status = 'Completed' AND ${visibleSubtask})`,
    })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(where)
}

type FilterShape = { hasStatus: boolean; hasPriority: boolean }
type ListStatements = ReturnType<typeof buildListStatements>

const listStatements = preparedPerDatabase((db) => {
  const byShape = new Map<string, ListStatements>()
  return (filters: TaskFilters) => {
    const shape = { hasStatus: filters.status !== undefined, hasPriority: filters.priority !== undefined }
    const key = `${shape.hasStatus}:${shape.hasPriority}`
    let statements = byShape.get(key)
    if (!statements) {
      statements = buildListStatements(db, shape)
      byShape.set(key, statements)
    }
    return statements
  }
})

const toListItem = (row: TaskListItem): TaskListItem => ({
  ...row,
  ownerName: row.ownerName || 'Unknown User',
  subtaskCount: Number(row.subtaskCount),
  subtasksCompleted: Number(row.subtasksCompleted),
})

/**
 * The task list, grouped: the viewer's own (paged: a user may own thousands), tasks shared with
 * them, and others' public tasks. Subtasks appear under their parent, not in the groups. Four
 * statements prepared once per filter shape; the rows carry only what the list shows.
 */
export async function listTaskGroups(
  db: Database,
  viewer: NonNullable<Viewer>,
  filters: TaskFilters = {},
  page: { limit: number; offset: number } = { limit: 50, offset: 0 },
): Promise<TaskGroups> {
  const statements = listStatements(db)(filters)
  const params = {
    ...viewerParams(viewer),
    status: filters.status ?? null,
    priority: filters.priority ?? null,
    ...page,
  }
  const [mine, [mineCount], shared, publicTasks] = await Promise.all([
    statements.mine.all(params),
    statements.mineCount.all(params),
    statements.shared.all(params),
    statements.public.all(params),
  ])
  return {
    mine: { tasks: mine.map(toListItem), total: Number(mineCount?.total ?? 0) },
    shared: shared.map(toListItem),
    public: publicTasks.map(toListItem),
  }
}

/**
 * The visibility rule as a condition on `tasks`, for queries of other domains that must follow
 * it (a notification about a task is readable only while its task is).
 */
export function visibleToSql(viewer: Viewer): SQL {
  if (!viewer) return eq(tasks.isPublic, true)
  return sql`(${eq(tasks.userId, viewer.id)} OR ${sharedWithViewerSql(viewer)} OR ${eq(tasks.isPublic, true)})`
}

/**
 * The visibility rule as a condition on `tasks`, for prepared statements: the viewer is the
 * placeholders `viewerId` and `email` (see `viewerParams`). An absent viewer and an unverified
 * address are NULL, which equals nothing, so one statement serves every viewer.
 */
export const visibleToViewerParamsSql = sql`(${tasks.isPublic} = 1 OR ${tasks.userId} = ${sql.placeholder('viewerId')} OR ${tasks.id} IN (SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${taskShares.email} = ${sql.placeholder('email')}))`

/** The rule above for one task, the placeholder `taskId` (see `visibilityParams`). */
export const isTaskVisibleSql = sql<number>`EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${sql.placeholder('taskId')} AND ${visibleToViewerParamsSql})`

export function viewerParams(viewer: Viewer) {
  return { viewerId: viewer?.id ?? null, email: shareEmail(viewer) }
}

export function visibilityParams(viewer: Viewer, taskId: string) {
  return { taskId, ...viewerParams(viewer) }
}

const visibleTaskProbe = preparedPerDatabase((db) =>
  db.select({ isVisible: isTaskVisibleSql }).from(sql`(SELECT 1)`).prepare(),
)

/** Whether the viewer may see the task, without reading it: one prepared probe. */
export async function canSeeTask(db: Database, viewer: Viewer, taskId: string): Promise<boolean> {
  const [row] = await visibleTaskProbe(db).all(visibilityParams(viewer, taskId))
  return Number(row?.isVisible) === 1
}

/** task.getAll: every task the viewer may see — own, shared with them, others' public. */
export async function listVisibleTasks(db: Database, viewer: NonNullable<Viewer>) {
  const rows = await selectTaskViews(db, viewer, visibleToSql(viewer)).orderBy(desc(tasks.createdAt))
  return rows.map((row) => toView(row, viewer))
}

/**
 * The viewer's own task completed last, or created last (a subtask counts: it opens in the modal
 * like any task), as the list shows it; null when there is none. Both orders ride an index.
 */
export async function findLatestOwnTask(
  db: Database,
  viewer: NonNullable<Viewer>,
  by: 'completed' | 'created',
) {
  const [row] =
    by === 'completed'
      ? await selectTaskViews(db, viewer, and(eq(tasks.userId, viewer.id), isNotNull(tasks.completedAt)))
          .orderBy(desc(tasks.completedAt), desc(tasks.id))
          .limit(1)
      : await selectTaskViews(db, viewer, eq(tasks.userId, viewer.id))
          .orderBy(desc(tasks.createdAt), desc(tasks.id))
          .limit(1)
  return row ? toView(row, viewer) : null
}

// ── Changing ────────────────────────────────────────────────────────────────

type Actor = NonNullable<Viewer> & { id: string }

async function requireOwner(db: Executor, actor: Actor, taskId: string) {
  const access = await getTask(db, actor, taskId)
  if (!access.isOwner) throw new Forbidden(NOT_ALLOWED)
  return access.task
}

/** A parent must be the owner's own top-level task: one level deep, so no cycles. */
async function checkParent(db: Executor, ownerId: string, parentTaskId: string, childId?: string) {
  if (parentTaskId === childId)
    throw new Invalid('A task cannot be its own subtask.', [
      { path: ['parentTaskId'], message: 'A task cannot be its own subtask.' },
    ])
  const [parent] = await db
    .select({ userId: tasks.userId, parentTaskId: tasks.parentTaskId })
    .from(tasks)
    .where(eq(tasks.id, parentTaskId))
    .limit(1)
  if (!parent || parent.userId !== ownerId) {
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

/** Replaces a task's shares, while `onlyIf` holds as the batch reaches them. */
function replaceSharesStatements(db: Database, taskId: string, emails: string[], onlyIf: SQL): Statement[] {
  return [
    db.delete(taskShares).where(and(eq(taskShares.taskId, taskId), onlyIf)),
    ...(emails.length > 0
      ? [
          db.run(
            sql`INSERT INTO ${taskShares} (task_id, email, created_at) SELECT ${taskId}, value, ${Date.now()} FROM json_each(${JSON.stringify(emails)}) WHERE ${onlyIf}`,
          ),
        ]
      : []),
  ]
}

/** Whether the actor still owns the task when the batch reaches this statement. */
function stillOwnedSql(actor: Actor, taskId: string) {
  return sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${taskId} AND ${tasks.userId} = ${actor.id})`
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
  await checkShares(db, actor, fields.sharedWith)
  if (fields.parentTaskId) await checkParent(db, actor.id, fields.parentTaskId)
  const id = crypto.randomUUID()
  const now = new Date()
  await writeBatch(db, [
    db.insert(tasks).values({
      id,
      userId: actor.id,
      text: fields.text,
      details: fields.details ?? null,
      refLink: fields.refLink ?? null,
      priority: fields.priority,
      status: fields.status,
      hrs: fields.hrs,
      isPublic: fields.isPublic,
      parentTaskId: fields.parentTaskId ?? null,
      completedAt: completedAtFor(fields.status, null, now),
      createdAt: now,
      updatedAt: now,
    }),
    ...replaceSharesStatements(db, id, fields.sharedWith, sql`1`),
    appendEventStatement(db, {
      topic: 'tasks',
      type: 'task-created',
      taskId: id,
      payload: { taskId: id, userId: actor.id },
    }),
  ])
  return (await getTask(db, actor, id)).task
}

export async function updateTask(
  db: Database,
  actor: Actor,
  taskId: string,
  changes: TaskUpdate,
): Promise<TaskView> {
  const before = await requireOwner(db, actor, taskId)
  if (changes.sharedWith) await checkShares(db, actor, changes.sharedWith)
  if (changes.parentTaskId) await checkParent(db, actor.id, changes.parentTaskId, taskId)
  const status = changes.status ?? before.status
  const now = new Date()
  // Only the owner edits, and ownership never moves: what can change meanwhile is the task being
  // deleted, and then nothing here is written.
  const isOwned = stillOwnedSql(actor, taskId)
  const [updated] = await writeBatch(db, [
    db
      .update(tasks)
      .set({
        text: changes.text,
        details: changes.details,
        refLink: changes.refLink,
        priority: changes.priority,
        status: changes.status,
        hrs: changes.hrs,
        isPublic: changes.isPublic,
        parentTaskId: changes.parentTaskId,
        completedAt: completedAtFor(status, before, now),
        updatedAt: now,
      })
      .where(and(eq(tasks.id, taskId), eq(tasks.userId, actor.id))),
    ...(changes.sharedWith ? replaceSharesStatements(db, taskId, changes.sharedWith, isOwned) : []),
    appendEventStatement(
      db,
      { topic: 'tasks', type: 'task-updated', taskId, payload: { taskId, userId: actor.id } },
      isOwned,
    ),
    ...(changes.status && changes.status !== before.status
      ? [
          appendEventStatement(
            db,
            {
              topic: 'tasks',
              type: 'task-status-changed',
              taskId,
              payload: { taskId, userId: actor.id, oldStatus: before.status, newStatus: changes.status },
            },
            isOwned,
          ),
        ]
      : []),
  ])
  if (rowsAffected(updated) === 0) throw new NotFound(TASK_NOT_FOUND)
  return (await getTask(db, actor, taskId)).task
}

/** The owner and the people it is shared with may move a task along. */
export async function setTaskStatus(
  db: Database,
  actor: Actor,
  taskId: string,
  status: Status,
): Promise<TaskView> {
  const access = await getTask(db, actor, taskId)
  if (!access.canSetStatus) throw new Forbidden(NOT_ALLOWED)
  const before = access.task
  if (before.status !== status) {
    const now = new Date()
    // The rule goes into the statement: a share revoked since the check above must not let
    // this change through.
    const [moved] = await writeBatch(db, [
      db
        .update(tasks)
        .set({ status, completedAt: completedAtFor(status, before, now), updatedAt: now })
        .where(and(eq(tasks.id, taskId), or(eq(tasks.userId, actor.id), sharedWithViewerSql(actor)))),
      appendEventStatement(
        db,
        {
          topic: 'tasks',
          type: 'task-status-changed',
          taskId,
          payload: { taskId, userId: actor.id, oldStatus: before.status, newStatus: status },
        },
        wroteJustBefore,
      ),
    ])
    if (rowsAffected(moved) === 0) {
      // Why nothing moved, as a fresh read tells it: gone from sight, or no longer theirs to move.
      if ((await getTask(db, actor, taskId)).canSetStatus) throw new NotFound(TASK_NOT_FOUND)
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
  // A subtask added between the read and the batch keeps its parent (see below): read again.
  for (let attempt = 1; ; attempt++) {
    await requireOwner(db, actor, taskId)
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
    appendEventStatement(
      db,
      {
        topic: 'tasks',
        type: 'task-deleted',
        taskId: id,
        payload: { taskId: id, userId: actor.id, audience: audiences.get(id) },
      },
      onlyIf,
    )
  const isOwned = stillOwnedSql(actor, taskId)
  const results = await writeBatch(db, [
    // Subtasks first, each with its event: deleting the parent first would let the foreign key
    // cascade remove them unseen. Only those read above, whose audiences the events carry.
    ...subtaskIds.map((id) =>
      deletedEvent(id, sql`${isOwned} AND EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.id} = ${id})`),
    ),
    db.delete(tasks).where(and(eq(tasks.parentTaskId, taskId), inArray(tasks.id, subtaskIds), isOwned)),
    // The parent goes only when no subtask is left that the events above did not announce.
    db
      .delete(tasks)
      .where(
        and(
          eq(tasks.id, taskId),
          eq(tasks.userId, actor.id),
          sql`NOT EXISTS (SELECT 1 FROM ${tasks} c WHERE c.parent_task_id = ${taskId})`,
        ),
      ),
    deletedEvent(taskId, wroteJustBefore),
  ])
  return rowsAffected(results.at(-2)) > 0
}

const parentCandidates = preparedPerDatabase((db) =>
  db
    .select({ id: tasks.id, text: tasks.text })
    .from(tasks)
    .where(and(eq(tasks.userId, sql.placeholder('ownerId')), sql`${tasks.parentTaskId} IS NULL`))
    .orderBy(desc(tasks.createdAt))
    .limit(100)
    .prepare(),
)

/** The owner's top-level tasks a new subtask may hang under (for the parent picker). */
export async function listParentCandidates(db: Database, ownerId: string) {
  return parentCandidates(db).all({ ownerId })
}

export type { Task }
