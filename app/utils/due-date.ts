import type { Status } from '~/domain/constants'
import { addDays, isoDate, type LocalDate, mondayOf } from './calendar'

/**
 * How a due date reads beside a task: "Due Thu, Dec 3", "Due today", or "Overdue" once the day
 * has passed in the viewer's own time zone and the task is not Completed. `today` is the viewer's
 * date (`YYYY-MM-DD`), which the loader works out from the time zone the browser reports, so the
 * server's render and the browser's agree. Dates of another year name the year.
 */
export type DueState = 'overdue' | 'today' | 'later'

function asUtcDate(isoDay: string) {
  const { year, month, day } = localDate(isoDay)
  return new Date(Date.UTC(year, month - 1, day))
}

export function dueStateOf(dueDate: string, status: Status, today: string): DueState {
  if (dueDate === today) return 'today'
  return dueDate < today && status !== 'Completed' ? 'overdue' : 'later'
}

export function describeDue(dueDate: string, status: Status, today: string) {
  const state = dueStateOf(dueDate, status, today)
  if (state === 'overdue') return { state, label: 'Overdue' }
  if (state === 'today') return { state, label: 'Due today' }
  const isThisYear = dueDate.slice(0, 4) === today.slice(0, 4)
  const date = asUtcDate(dueDate).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: isThisYear ? undefined : 'numeric',
    timeZone: 'UTC',
  })
  return { state, label: `Due ${date}` }
}

function localDate(isoDay: string): LocalDate {
  const [year = 1970, month = 1, day = 1] = isoDay.split('-').map(Number)
  return { year, month, day }
}

/**
 * What "due this week" means everywhere (the list's filter, the dashboard's counts, the
 * assistant): from `today` through this week's Sunday (weeks start on Monday), as `YYYY-MM-DD`.
 * What was due before today is overdue instead, so the two never count a task twice.
 */
export function dueThisWeek(today: string) {
  const monday = mondayOf(localDate(today))
  return { from: today, through: isoDate(addDays(monday, 6)) }
}
