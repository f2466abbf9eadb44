import type { DueCounts, ProductivityInsights, TaskStats, TaskTotals } from '~/services/stats.server'
import { cn } from '~/utils/cn'
import { formatHours, plural } from './format'

function Stat({
  label,
  value,
  detail,
  className,
}: {
  label: string
  value: string
  detail?: string
  className?: string
}) {
  return (
    <div className={cn('rounded-lg border bg-card p-5', className)}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-3xl font-semibold tabular-nums">{value}</dd>
      {detail ? <dd className="mt-1 text-sm text-muted-foreground">{detail}</dd> : null}
    </div>
  )
}

function changeText(change: number) {
  if (change === 0) return 'the same as last week'
  return `${change > 0 ? '+' : '−'}${Math.abs(change)} on last week`
}

/** The headline numbers of the person's own tasks. */
export function StatCards({ stats, insights }: { stats: TaskStats; insights: ProductivityInsights }) {
  const own = stats.own
  return (
    <dl aria-label="Your tasks" className="grid grid-cols-2 gap-4 lg:grid-cols-5">
      <Stat label="Tasks" value={String(own.total)} detail={`${own.byStatus['In Progress']} in progress`} />
      <Stat
        label="Completion rate"
        value={`${own.completionRate}%`}
        detail={`${own.byStatus.Completed} done`}
      />
      <Stat
        label="Hours completed"
        value={String(own.hoursCompleted)}
        detail={`of ${own.hoursPlanned} planned`}
      />
      <Stat
        label="Subtasks done"
        value={`${own.subtasks.done}/${own.subtasks.total}`}
        detail={own.subtasks.total === 0 ? 'no subtasks yet' : undefined}
      />
      <Stat
        className="col-span-2 lg:col-span-1"
        label="Completed this week"
        value={String(insights.completedThisWeek)}
        detail={changeText(insights.weekOverWeekChange)}
      />
    </dl>
  )
}

/** What is overdue and due by Sunday: the person's own tasks, and apart, others' assigned to them. */
export function DueCards({ due }: { due: { own: DueCounts; assigned: DueCounts } }) {
  return (
    <dl aria-label="Due dates" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <Stat
        label="Overdue"
        value={String(due.own.overdue)}
        detail="of your tasks"
        className={due.own.overdue > 0 ? 'border-destructive/50' : undefined}
      />
      <Stat
        label="Due this week"
        value={String(due.own.dueThisWeek)}
        detail="of your tasks, through Sunday"
      />
      <Stat
        label="Assigned to you, overdue"
        value={String(due.assigned.overdue)}
        className={due.assigned.overdue > 0 ? 'border-destructive/50' : undefined}
      />
      <Stat label="Assigned to you, due this week" value={String(due.assigned.dueThisWeek)} />
    </dl>
  )
}

/** The insights in words, and what is shared with the person, apart from their own numbers. */
export function InsightsPanel({ insights, shared }: { insights: ProductivityInsights; shared: TaskTotals }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <section aria-labelledby="insights-title" className="rounded-lg border bg-card p-5">
        <h2 id="insights-title" className="text-lg font-semibold">
          Insights
        </h2>
        <p className="mt-2">{insights.summary}</p>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Median time to complete</dt>
          <dd>
            {insights.medianHoursToComplete === null ? '—' : formatHours(insights.medianHoursToComplete)}
          </dd>
          <dt className="text-muted-foreground">Busiest weekday</dt>
          <dd>
            {insights.busiestWeekday
              ? `${insights.busiestWeekday.weekday} (${plural(insights.busiestWeekday.completed, 'task')} in 8 weeks)`
              : '—'}
          </dd>
          <dt className="text-muted-foreground">Current streak</dt>
          <dd>{plural(insights.currentStreakDays, 'day')}</dd>
        </dl>
        <p className="mt-4 text-xs text-muted-foreground">
          Days and weeks in {insights.timeZone}, from Monday.
        </p>
      </section>
      <section aria-labelledby="shared-title" className="rounded-lg border bg-card p-5">
        <h2 id="shared-title" className="text-lg font-semibold">
          Shared with you
        </h2>
        {shared.total === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">Nobody has shared a task with you yet.</p>
        ) : (
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Tasks</dt>
            <dd>{shared.total}</dd>
            <dt className="text-muted-foreground">Backlog / LFG / Done</dt>
            <dd>
              {shared.byStatus['Not Started']} / {shared.byStatus['In Progress']} /{' '}
              {shared.byStatus.Completed}
            </dd>
            <dt className="text-muted-foreground">Hours completed</dt>
            <dd>
              {shared.hoursCompleted} of {shared.hoursPlanned}
            </dd>
            <dt className="text-muted-foreground">Completion rate</dt>
            <dd>{shared.completionRate}%</dd>
          </dl>
        )}
      </section>
    </div>
  )
}
