import { Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { BarList } from '~/components/charts/bar-list'
import { ColumnChart } from '~/components/charts/column-chart'
import { RouteErrorScreen } from '~/components/error-screens'
import { LiveUpdatesPaused } from '~/components/live/live-updates-paused'
import { useRevalidateOnTaskEvents } from '~/components/live/use-revalidate-on-task-events'
import { buttonClasses } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { getOnboarding } from '~/services/onboarding.server'
import {
  getDueCounts,
  getMostRecentCompleted,
  getMostRecentCreated,
  getProductivityInsights,
  getTaskStats,
} from '~/services/stats.server'
import { useRevalidateWhenStale } from '~/utils/revalidate-when-stale'
import { timeZoneFrom } from '~/utils/time-zone.server'
import { shortDate } from './+parts/format'
import { OnboardingChecklist } from './+parts/onboarding-checklist'
import { RecentTask } from './+parts/recent-task'
import { DueCards, InsightsPanel, StatCards } from './+parts/stat-cards'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Threadwork' }]

/**
 * Everything the dashboard shows comes from this one loader, so a single revalidation (after a
 * form post, when a task event arrives, or when the person returns to a tab whose numbers are
 * over a second old) refreshes every number and chart at once.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const timeZone = timeZoneFrom(request.headers)
  // The numbers are those of the workspace the person works in (the header's switcher).
  const workspaceId = user.activeWorkspaceId
  const [stats, insights, due, recentlyCompleted, recentlyCreated, onboarding] = await Promise.all([
    getTaskStats(db, user, workspaceId),
    getProductivityInsights(db, user, workspaceId, { timeZone }),
    getDueCounts(db, user, workspaceId, { timeZone }),
    getMostRecentCompleted(db, user, workspaceId),
    getMostRecentCreated(db, user, workspaceId),
    getOnboarding(db, user),
  ])
  return { user, stats, insights, due, recentlyCompleted, recentlyCreated, onboarding }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { user, stats, insights, due, recentlyCompleted, recentlyCreated, onboarding } = loaderData
  useRevalidateWhenStale(loaderData)
  const { isPaused } = useRevalidateOnTaskEvents()
  const own = stats.own
  const isEmpty = own.total === 0 && own.subtasks.total === 0 && stats.shared.total === 0
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header>
        <h1 className="text-2xl font-semibold">Welcome back{user.name ? `, ${user.name}` : ''}</h1>
        <p className="mt-1 text-muted-foreground">{insights.summary}</p>
        <LiveUpdatesPaused isPaused={isPaused} />
      </header>

      {onboarding.isFinished ? null : <OnboardingChecklist checklist={onboarding.checklist} />}

      {isEmpty ? (
        <section aria-labelledby="empty-title" className="rounded-lg border bg-card p-8 text-center">
          <h2 id="empty-title" className="text-lg font-semibold">
            No tasks yet
          </h2>
          <p className="mt-2 text-muted-foreground">
            Your numbers and charts appear here as you create and finish tasks.
          </p>
          <Link to="/task#create-task" className={buttonClasses('default', 'default', 'mt-4')}>
            Create your first task
          </Link>
        </section>
      ) : (
        <>
          <StatCards stats={stats} insights={insights} />
          <DueCards due={due} />
          <section aria-label="Charts" className="grid gap-4 md:grid-cols-2">
            <BarList
              title="Tasks by status"
              description={`Of your ${own.total} tasks: ${own.byStatus['Not Started']} in the backlog, ${own.byStatus['In Progress']} in progress, ${own.byStatus.Completed} done.`}
              columns={['Status', 'Tasks']}
              data={[
                { label: 'Backlog', value: own.byStatus['Not Started'], tone: 'backlog' },
                { label: 'LFG', value: own.byStatus['In Progress'], tone: 'active' },
                { label: 'Done', value: own.byStatus.Completed, tone: 'done' },
              ]}
            />
            <BarList
              title="Tasks by priority"
              description={`Of your ${own.total} tasks: ${own.byPriority.high} high, ${own.byPriority.medium} medium and ${own.byPriority.low} low priority.`}
              columns={['Priority', 'Tasks']}
              data={[
                { label: 'High', value: own.byPriority.high, tone: 'high' },
                { label: 'Medium', value: own.byPriority.medium, tone: 'medium' },
                { label: 'Low', value: own.byPriority.low, tone: 'low' },
              ]}
            />
            <ColumnChart
              title="Hours completed per week"
              description={`Hours of tasks completed in each of the last ${insights.hoursPerWeek.length} weeks, from the week of ${shortDate(insights.hoursPerWeek[0]?.weekStart)}; ${insights.hoursPerWeek.at(-1)?.hours ?? 0} this week.`}
              columns={['Week of', 'Hours']}
              unit="h"
              data={insights.hoursPerWeek.map((week) => ({
                label: shortDate(week.weekStart),
                value: week.hours,
              }))}
            />
            <ColumnChart
              title="Completions per day"
              description={`Tasks completed on each of the last ${insights.completionsPerDay.length} days: ${insights.completionsPerDay.reduce((sum, day) => sum + day.completed, 0)} in all.`}
              columns={['Day', 'Tasks completed']}
              tone="done"
              data={insights.completionsPerDay.map((day) => ({
                label: shortDate(day.date),
                value: day.completed,
              }))}
            />
          </section>
          <InsightsPanel insights={insights} shared={stats.shared} />
          <section aria-labelledby="recent-title" className="flex flex-col gap-3">
            <h2 id="recent-title" className="text-lg font-semibold">
              Most recent
            </h2>
            <div className="grid gap-4 md:grid-cols-2">
              <RecentTask title="Completed last" task={recentlyCompleted} empty="Nothing completed yet." />
              <RecentTask title="Created last" task={recentlyCreated} empty="No tasks created yet." />
            </div>
          </section>
        </>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
