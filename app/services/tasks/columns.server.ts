import { and, count, eq, sql } from 'drizzle-orm'
import { alias, QueryBuilder } from 'drizzle-orm/sqlite-core'
import { tasks } from '~/db/schema'
import { ruleSql, type ViewerInSql } from './rule.server'

const query = new QueryBuilder()
const subtask = alias(tasks, 'subtask')

/**
 * A task's subtask progress as correlated subqueries on the parent index. It counts only the
 * subtasks this viewer may open, so a public parent does not reveal how many private subtasks
 * it has.
 */
export function subtaskProgressColumns(viewer: ViewerInSql) {
  const visibleSubtask = and(eq(subtask.parentTaskId, tasks.id), ruleSql('see', viewer, subtask))
  return {
    subtaskCount: sql<number>`${query.select({ n: count() }).from(subtask).where(visibleSubtask)}`,
    subtasksCompleted: sql<number>`${query
      .select({ n: count() })
      .from(subtask)
      .where(and(visibleSubtask, eq(subtask.status, 'Completed')))}`,
  }
}
