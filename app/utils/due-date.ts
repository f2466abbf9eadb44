import type { Status } from '~/domain/constants'

/**
 * How a due date reads beside a task: "Due Thu, Dec 3", "Due today", or "Overdue" once the day
 * has passed in the viewer's own time zone and the task is not Completed. `today` is the viewer's
 * date (`YYYY-MM-DD`), which the loader works out from the time zone the browser reports, so the
 * server's render and the browser's agree. Dates of another year name the year.
 */
export type DueState = 'overdue' | 'today' | 'later'

function asUtcDate(isoDay: string) {
  const [year = 1970, month = 1, day = 1] = isoDay.split('-').map(Number)
  return new Date(Date.UTC(year, month - 1, day))
}

function dueStateOf(dueDate: string, status: Status, today: string): DueState {
  if (dueDate === today) return 'today'
  return isOpenBefore({ dueDate, status }, today) ? 'overdue' : 'later'
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

/**
 * The windows of due dates, written once (docs/product-rules.md): the list's filter, the
 * dashboard's counts, the assistant's tool and the "Overdue" badge all read them, in memory
 * (`isDueWithin`) or as SQL (`dueWithinSql` in app/services/tasks/due.server.ts); a table-driven
 * test holds the two forms together. Days are the viewer's own (`today`, `YYYY-MM-DD`); a window
 * is half-open, from `from` up to but not including `before`, and holds only tasks not Completed.
 * Weeks start on Monday, so "this week" runs from today through Sunday, and what was due before
 * today is overdue instead: no task is counted in both.
 */
export const DUE_WINDOWS = ['overdue', 'today', 'week'] as const
export type DueWindow = (typeof DUE_WINDOWS)[number]

/** The day `days` after `isoDay`, as `YYYY-MM-DD`. */
function daysAfter(isoDay: string, days: number) {
  const date = asUtcDate(isoDay)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * The days a window covers for a viewer whose date is `today`. Plain UTC date arithmetic (a day
 * has no zone here), so the badge on every task row carries no calendar code to the browser.
 */
export function dueWindowDays(window: DueWindow, today: string): { from: string | null; before: string } {
  if (window === 'overdue') return { from: null, before: today }
  if (window === 'today') return { from: today, before: daysAfter(today, 1) }
  // Next Monday: Sunday (0) is one day away, Monday (1) seven.
  return { from: today, before: daysAfter(today, 7 - ((asUtcDate(today).getUTCDay() + 6) % 7)) }
}

/** Whether a task falls in a window: it has a due date in its days and is not Completed. */
export function isDueWithin(
  window: DueWindow,
  task: { dueDate: string | null; status: Status },
  today: string,
): boolean {
  const { from, before } = dueWindowDays(window, today)
  return isOpenBefore(task, before) && (from === null || (task.dueDate as string) >= from)
}

/**
 * Every window's end, and all there is to 'overdue' (the badge reads it alone, so the browser
 * gets no more of the windows than this): dated, not Completed, due before `before`.
 */
function isOpenBefore(task: { dueDate: string | null; status: Status }, before: string) {
  return task.dueDate !== null && task.status !== 'Completed' && task.dueDate < before
}
