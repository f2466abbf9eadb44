import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { tasks, users } from '~/db/schema'
import type { Priority, Status } from '~/domain/constants'
import type { Actor } from '../session-user'
import { taskListItemColumns } from './columns.server'
import { ruleSql, viewerParams, viewerPlaceholders } from './rule.server'
import type { TaskListItem } from './view'

/** The task list page's groups, read by four statements prepared once per filter shape. */

export type TaskFilters = { status?: Status; priority?: Priority }

export type TaskGroups = {
  mine: { tasks: TaskListItem[]; total: number }
  shared: TaskListItem[]
  public: TaskListItem[]
}

/** The placeholders of the task list's statements besides the viewer's (`viewerPlaceholders`). */
const list = {
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
  const mineWhere = and(eq(tasks.userId, viewerPlaceholders.id), topLevel, filter)
  return {
    mine: selectListItems(db, mineWhere)
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(list.limit)
      .offset(list.offset)
      .prepare(),
    mineCount: db.select({ total: sql<number>`count(*)` }).from(tasks).where(mineWhere).prepare(),
    shared: selectListItems(db, and(ruleSql('sharedWith', viewerPlaceholders), filter))
      .orderBy(desc(tasks.createdAt))
      .limit(200)
      .prepare(),
    public: selectListItems(db, and(ruleSql('publicToThem', viewerPlaceholders), topLevel, filter))
      .orderBy(desc(tasks.createdAt))
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
  viewer: Actor,
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
