import { and, eq, isNotNull, isNull, lt, ne, type SQL, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { PRIORITIES, type Priority, STATUSES, type Status } from '~/domain/constants'
import {
  addDays,
  isoDate,
  type LocalDate,
  localDateOf,
  mondayOf,
  startOfDay,
  todayIn,
  weekdayOf,
} from '~/utils/calendar'
import { dueWindowDays } from '~/utils/due-date'
import type { Actor } from './session-user'
import { dueWithinSql } from './tasks/due.server'
import { findLatestOwnTask } from './tasks/reads.server'
import { ruleSql, viewerValues } from './tasks/rule.server'
import { requireMembership } from './workspaces/membership.server'

/**
 * What the dashboard tells a person about their work, computed by SQL aggregates over index
 * ranges: no statement loads the person's tasks into JavaScript, so the cost follows the number
 * of buckets, not of tasks.
 *
 * - The person's own numbers count their top-level tasks, the ones /task lists under My tasks;
 *   their subtasks are counted apart (done of total), so the two pages never disagree.
 * - Tasks shared with them are shown apart, counted as the Shared with me group lists them.
 * - Days and weeks are the person's own: local midnight in their time zone, weeks from Monday.
 */

export type TaskTotals = {
  total: number
  byStatus: Record<Status, number>
  byPriority: Record<Priority, number>
  hoursPlanned: number
  hoursCompleted: number
  /** Completed out of all, as a whole percentage (0 when there are none). */
  completionRate: number
}

export type TaskStats = {
  own: TaskTotals & { subtasks: { done: number; total: number } }
  shared: TaskTotals
}

type Group = { status: Status; priority: Priority; count: number; hours: number }

/**
 * A scope's tasks in groups of (status, priority): at most nine rows, which the covering index
 * hands over already in order, so SQLite only counts (conditional sums over every row cost
 * several times as much). The totals are added up from the groups.
 */
function selectGroups(db: Database, where: SQL | undefined): Promise<Group[]> {
  return db
    .select({
      status: tasks.status,
      priority: tasks.priority,
      count: sql<number>`count(*)`,
      hours: sql<number>`sum(${tasks.hrs})`,
    })
    .from(tasks)
    .where(where)
    .groupBy(tasks.status, tasks.priority)
}

function toTotals(groups: Group[]): TaskTotals {
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as TaskTotals['byStatus']
  const byPriority = Object.fromEntries(
    PRIORITIES.map((priority) => [priority, 0]),
  ) as TaskTotals['byPriority']
  let total = 0
  let hoursPlanned = 0
  let hoursCompleted = 0
  for (const group of groups) {
    const count = Number(group.count)
    const hours = Number(group.hours)
    total += count
    byStatus[group.status] += count
    byPriority[group.priority] += count
    hoursPlanned += hours
    if (group.status === 'Completed') hoursCompleted += hours
  }
  return {
    total,
    byStatus,
    byPriority,
    hoursPlanned,
    hoursCompleted,
    completionRate: total === 0 ? 0 : Math.round((byStatus.Completed / total) * 100),
  }
}

/**
 * task.getTaskStats: every count over the person's tasks wherever they are, or, given one of
 * their workspaces, over that workspace's only; one they are not in answers as an unknown one.
 */
export async function getTaskStats(db: Database, actor: Actor, workspaceId?: string): Promise<TaskStats> {
  if (workspaceId !== undefined) await requireMembership(db, actor.id, workspaceId)
  const inWorkspace = workspaceId === undefined ? undefined : eq(tasks.workspaceId, workspaceId)
  const [own, subtasks, shared] = await Promise.all([
    selectGroups(db, and(eq(tasks.userId, actor.id), isNull(tasks.parentTaskId), inWorkspace)),
    selectGroups(db, and(eq(tasks.userId, actor.id), isNotNull(tasks.parentTaskId), inWorkspace)),
    // Shares reach a person through their verified address only (docs/product-rules.md §1).
    selectGroups(db, and(ruleSql('sharedWith', viewerValues(actor)), inWorkspace)),
  ])
  const subtaskTotals = toTotals(subtasks)
  return {
    own: {
      ...toTotals(own),
      subtasks: { done: subtaskTotals.byStatus.Completed, total: subtaskTotals.total },
    },
    shared: toTotals(shared),
  }
}

// ── Productivity insights ───────────────────────────────────────────────────

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** The charts' spans: eight weeks of hours, thirty days of completions. */
const WEEKS_CHARTED = 8
const DAYS_CHARTED = 30

export type ProductivityInsights = {
  timeZone: string
  completedThisWeek: number
  completedLastWeek: number
  /** This week minus last week. */
  weekOverWeekChange: number
  /** Median time from creation to completion over every completed task, or null with none. */
  medianHoursToComplete: number | null
  /** Oldest first; the last entry is the current week. */
  hoursPerWeek: { weekStart: string; hours: number; completed: number }[]
  /** Oldest first; the last entry is today. */
  completionsPerDay: { date: string; completed: number }[]
  /** The weekday with the most completions over the charted weeks, or null with none. */
  busiestWeekday: { weekday: (typeof WEEKDAYS)[number]; completed: number } | null
  /** Consecutive days with a completion, up to today (or yesterday, while today has none yet). */
  currentStreakDays: number
  summary: string
}

type DayCount = { date: LocalDate; completed: number; hours: number }

/**
 * Completions and completed hours on each local day from `first` through `last`: one statement
 * whose rows are the days (their bounds computed here, so DST days are 23 or 25 hours long), each
 * joined to an index range of the person's completed tasks.
 */
async function completionsByDay(
  db: Database,
  actor: Actor,
  timeZone: string,
  first: LocalDate,
  last: LocalDate,
): Promise<DayCount[]> {
  const days: LocalDate[] = []
  for (let day = first; isoDate(day) <= isoDate(last); day = addDays(day, 1)) days.push(day)
  const starts = [...days, addDays(last, 1)].map((day) => startOfDay(day, timeZone))
  const bounds = days.map((_, i) => sql`(${i}, ${starts[i]}, ${starts[i + 1]})`)
  const rows = await db.all<{ i: number; completed: number; hours: number }>(sql`
    WITH days(i, starts, ends) AS (VALUES ${sql.join(bounds, sql`, `)})
    SELECT days.i AS i, count(t.id) AS completed, coalesce(sum(t.hrs), 0) AS hours
    FROM days
    LEFT JOIN ${tasks} t ON t.user_id = ${actor.id} AND t.parent_task_id IS NULL
      AND t.completed_at >= days.starts AND t.completed_at < days.ends
    GROUP BY days.i ORDER BY days.i`)
  return days.map((date, i) => ({
    date,
    completed: Number(rows[i]?.completed ?? 0),
    hours: Number(rows[i]?.hours ?? 0),
  }))
}

async function medianHoursToComplete(db: Database, actor: Actor) {
  const completedOwn = and(
    eq(tasks.userId, actor.id),
    isNull(tasks.parentTaskId),
    isNotNull(tasks.completedAt),
  )
  const [counted] = await db.select({ n: sql<number>`count(*)` }).from(tasks).where(completedOwn)
  const n = Number(counted?.n ?? 0)
  if (n === 0) return null
  const middle = await db
    .select({ took: sql<number>`${tasks.completedAt} - ${tasks.createdAt}` })
    .from(tasks)
    .where(completedOwn)
    .orderBy(sql`${tasks.completedAt} - ${tasks.createdAt}`)
    .limit(2 - (n % 2))
    .offset(Math.floor((n - 1) / 2))
  const took = middle.reduce((sum, row) => sum + Number(row.took), 0) / middle.length
  return Math.round((Math.max(0, took) / 3_600_000) * 10) / 10
}

/** Counts back from the latest day, fetching earlier spans only while every day had a completion. */
async function currentStreak(db: Database, actor: Actor, timeZone: string, days: DayCount[]) {
  let span = days
  let streak = 0
  // Today without a completion yet does not break a streak that reached yesterday.
  let index = span.length - 1
  if (span[index]?.completed === 0) index -= 1
  for (;;) {
    while (index >= 0 && (span[index]?.completed ?? 0) > 0) {
      streak += 1
      index -= 1
    }
    const firstDay = span[0]?.date
    if (index >= 0 || !firstDay) return streak
    const last = addDays(firstDay, -1)
    span = await completionsByDay(db, actor, timeZone, addDays(last, -(WEEKS_CHARTED * 7 - 1)), last)
    index = span.length - 1
  }
}

function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`
}

/** The insights in one plain sentence: "You completed 6 tasks this week, 2 more than last week." */
export function summarize(thisWeek: number, lastWeek: number) {
  if (thisWeek === 0 && lastWeek === 0) return 'You have not completed a task this week or last week yet.'
  const change = thisWeek - lastWeek
  const comparison =
    change === 0
      ? 'the same as last week'
      : `${Math.abs(change)} ${change > 0 ? 'more' : 'fewer'} than last week`
  return `You completed ${plural(thisWeek, 'task')} this week, ${comparison}.`
}

/** task.getProductivityInsights */
export async function getProductivityInsights(
  db: Database,
  actor: Actor,
  input: { timeZone: string; now?: Date },
): Promise<ProductivityInsights> {
  const { timeZone } = input
  const today = localDateOf((input.now ?? new Date()).getTime(), timeZone)
  const thisMonday = mondayOf(today)
  const firstMonday = addDays(thisMonday, -(WEEKS_CHARTED - 1) * 7)
  const [days, median] = await Promise.all([
    completionsByDay(db, actor, timeZone, firstMonday, today),
    medianHoursToComplete(db, actor),
  ])

  const hoursPerWeek = Array.from({ length: WEEKS_CHARTED }, (_, week) => {
    const inWeek = days.slice(week * 7, week * 7 + 7)
    return {
      weekStart: isoDate(addDays(firstMonday, week * 7)),
      hours: inWeek.reduce((sum, day) => sum + day.hours, 0),
      completed: inWeek.reduce((sum, day) => sum + day.completed, 0),
    }
  })
  const byWeekday = WEEKDAYS.map((_, weekday) =>
    days.reduce((sum, day) => sum + (weekdayOf(day.date) === weekday ? day.completed : 0), 0),
  )
  const most = Math.max(...byWeekday)
  const completedThisWeek = hoursPerWeek.at(-1)?.completed ?? 0
  const completedLastWeek = hoursPerWeek.at(-2)?.completed ?? 0

  return {
    timeZone,
    completedThisWeek,
    completedLastWeek,
    weekOverWeekChange: completedThisWeek - completedLastWeek,
    medianHoursToComplete: median,
    hoursPerWeek,
    completionsPerDay: days
      .slice(-DAYS_CHARTED)
      .map((day) => ({ date: isoDate(day.date), completed: day.completed })),
    busiestWeekday:
      most === 0 ? null : { weekday: WEEKDAYS[byWeekday.indexOf(most)] ?? 'Monday', completed: most },
    currentStreakDays: await currentStreak(db, actor, timeZone, days),
    summary: summarize(completedThisWeek, completedLastWeek),
  }
}

// ── Due dates ───────────────────────────────────────────────────────────────

/** Not Completed tasks whose day has passed, and those due from today through Sunday. */
export type DueCounts = { overdue: number; dueThisWeek: number }

/**
 * One index range per scope (tasks_user_due_idx, tasks_assignee_due_idx): everything due before
 * next Monday, counted by the two due windows (app/utils/due-date.ts). Days are the person's own,
 * as for the insights.
 */
async function countDue(db: Database, where: SQL | undefined, today: string) {
  const overdue = dueWithinSql('overdue', dueWindowDays('overdue', today))
  const week = dueWindowDays('week', today)
  const [row] = await db
    .select({
      overdue: sql<number>`coalesce(sum(${overdue}), 0)`,
      dueThisWeek: sql<number>`coalesce(sum(${dueWithinSql('week', week)}), 0)`,
    })
    .from(tasks)
    .where(and(where, lt(tasks.dueDate, week.before)))
  return { overdue: Number(row?.overdue ?? 0), dueThisWeek: Number(row?.dueThisWeek ?? 0) }
}

/**
 * What is overdue and due this week: the person's own tasks (subtasks included: each has its own
 * date), and apart, others' tasks assigned to them that they may see.
 */
export async function getDueCounts(
  db: Database,
  actor: Actor,
  input: { timeZone: string; now?: Date },
): Promise<{ own: DueCounts; assigned: DueCounts }> {
  const now = (input.now ?? new Date()).getTime()
  const today = todayIn(input.timeZone, now)
  const [own, assigned] = await Promise.all([
    countDue(db, eq(tasks.userId, actor.id), today),
    countDue(
      db,
      and(eq(tasks.assigneeId, actor.id), ne(tasks.userId, actor.id), ruleSql('see', viewerValues(actor))),
      today,
    ),
  ])
  return { own, assigned }
}

// ── Most recent ─────────────────────────────────────────────────────────────

/** task.getMostRecentCompleted */
export function getMostRecentCompleted(db: Database, actor: Actor) {
  return findLatestOwnTask(db, actor, 'completed')
}

/** task.getMostRecentCreated */
export function getMostRecentCreated(db: Database, actor: Actor) {
  return findLatestOwnTask(db, actor, 'created')
}
