import { and, gte, lt, ne, type SQLWrapper } from 'drizzle-orm'
import { tasks } from '~/db/schema'
import type { DueWindow } from '~/utils/due-date'

/**
 * A due window (`DUE_WINDOWS`, app/utils/due-date.ts) as a condition on `tasks`: the SQL form of
 * `isDueWithin`, over the window's days (`dueWindowDays`) bound now or as placeholders of a
 * prepared statement. An undated task compares as NULL, so no window holds it.
 * due.forms.server.test.ts runs both forms over the same grid.
 */
export function dueWithinSql(
  window: DueWindow,
  days: { from: string | SQLWrapper | null; before: string | SQLWrapper },
) {
  return and(
    ne(tasks.status, 'Completed'),
    window === 'overdue' || days.from === null ? undefined : gte(tasks.dueDate, days.from),
    lt(tasks.dueDate, days.before),
  )
}
