import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { tasks, users } from '~/db/schema'
import type { Priority, Status } from '~/domain/constants'
import { DEFAULT_TIME_ZONE, todayIn } from '~/utils/calendar'
import { type DueWindow, dueWindowDays } from '~/utils/due-date'
import type { Actor } from '../session-user'
import { requireMembership } from '../workspaces/membership.server'
import { taskListItemColumns } from './columns.server'
import { dueWithinSql } from './due.server'
import { ruleSql, viewerParams, viewerPlaceholders } from './rule.server'
import type { TaskListItem } from './view'

/** The task list page's groups, read by four statements prepared once per filter shape. */

/**
 * What the list may be narrowed to, each in the URL: a status, a priority, what is overdue or due
 * this week (the due windows of app/utils/due-date.ts, by the viewer's own today), what is
 * assigned to the viewer; and its order, newest first or by due date (undated last).
 */
export type TaskFilters = {
  status?: Status
  priority?: Priority
  due?: Exclude<DueWindow, 'today'>
  assignee?: 'me'
  sort?: 'due'
  /** One of the viewer's workspaces: only its tasks (NotFound for any other). */
  workspaceId?: string
}

export type TaskGroups = {
  mine: { tasks: TaskListItem[]; total: number }
  shared: TaskListItem[]
  public: TaskListItem[]
}

/** The placeholders of the task list's statements besides the viewer's (`viewerPlaceholders`). */
const list = {
  status: sql.placeholder('status'),
  priority: sql.placeholder('priority'),
  dueFrom: sql.placeholder('dueFrom'),
  dueBefore: sql.placeholder('dueBefore'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  workspaceId: sql.placeholder('workspaceId'),
}

/**
 * The task list's four statements for one filter shape (which filters are set, and the order),
 * built with placeholders. The viewer's unverified or absent address is NULL, which equals
 * nothing, so one statement serves every viewer; only the shape changes the SQL, so each set is
 * built once per database, on first use.
 */
function buildListStatements(db: Database, shape: FilterShape) {
  const filter = and(
    shape.status ? eq(tasks.status, list.status) : undefined,
    shape.priority ? eq(tasks.priority, list.priority) : undefined,
    shape.due ? dueWithinSql(shape.due, { from: list.dueFrom, before: list.dueBefore }) : undefined,
    shape.assignee ? eq(tasks.assigneeId, viewerPlaceholders.id) : undefined,
    shape.workspace ? eq(tasks.workspaceId, list.workspaceId) : undefined,
  )
  // By due date, the undated last; newest first among equals, as the list is otherwise.
  const order =
    shape.sort === 'due'
      ? [sql`${tasks.dueDate} IS NULL`, asc(tasks.dueDate), desc(tasks.createdAt), desc(tasks.id)]
      : [desc(tasks.createdAt), desc(tasks.id)]
  const topLevel = sql`${tasks.parentTaskId} IS NULL`
  const mineWhere = and(eq(tasks.userId, viewerPlaceholders.id), topLevel, filter)
  return {
    mine: selectListItems(db, mineWhere)
      .orderBy(...order)
      .limit(list.limit)
      .offset(list.offset)
      .prepare(),
    mineCount: db.select({ total: sql<number>`count(*)` }).from(tasks).where(mineWhere).prepare(),
    shared: selectListItems(db, and(ruleSql('sharedWith', viewerPlaceholders), filter))
      .orderBy(...order)
      .limit(200)
      .prepare(),
    public: selectListItems(db, and(ruleSql('publicToThem', viewerPlaceholders), topLevel, filter))
      .orderBy(...order)
      .limit(200)
      .prepare(),
  }
}

/** A list row: the columns of the task view (columns.server.ts) for the fields the row shows. */
function selectListItems(db: Database, where: SQL | undefined) {
  return db
    .select(taskListItemColumns(viewerPlaceholders))
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(where)
}

/** Which filters are set (not their values, which are bound) and the order: what changes the SQL. */
type FilterShape = {
  status: boolean
  priority: boolean
  due: TaskFilters['due']
  assignee: boolean
  sort: TaskFilters['sort']
  workspace: boolean
}
type ListStatements = ReturnType<typeof buildListStatements>

const listStatements = preparedPerDatabase((db) => {
  const byShape = new Map<string, ListStatements>()
  return (filters: TaskFilters) => {
    const shape: FilterShape = {
      status: filters.status !== undefined,
      priority: filters.priority !== undefined,
      due: filters.due,
      assignee: filters.assignee === 'me',
      sort: filters.sort,
      workspace: filters.workspaceId !== undefined,
    }
    const key = JSON.stringify(shape)
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
  viewer: Actor,
  filters: TaskFilters = {},
  page: { limit: number; offset: number } = { limit: 50, offset: 0 },
  today = todayIn(DEFAULT_TIME_ZONE),
): Promise<TaskGroups> {
  if (filters.workspaceId !== undefined) await requireMembership(db, viewer.id, filters.workspaceId)
  const statements = listStatements(db)(filters)
  const days = filters.due ? dueWindowDays(filters.due, today) : null
  const params = {
    ...viewerParams(viewer),
    status: filters.status ?? null,
    priority: filters.priority ?? null,
    dueFrom: days?.from ?? null,
    dueBefore: days?.before ?? null,
    workspaceId: filters.workspaceId ?? null,
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
