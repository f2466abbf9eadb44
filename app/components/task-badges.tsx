import { cn } from '~/utils/cn'

/** The spec's status labels: Not Started → Backlog, In Progress → LFG, Completed → Done. */
export function statusLabel(status: string) {
  if (status === 'In Progress') return 'LFG'
  if (status === 'Completed') return 'Done'
  return 'Backlog'
}

const badge = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold'

/** Upper case; high red, medium amber, anything else green. */
export function PriorityBadge({ priority }: { priority: string }) {
  const tone =
    priority === 'high'
      ? 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200'
      : priority === 'medium'
        ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
        : 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200'
  return (
    <span className={cn(badge, tone)} data-priority={priority}>
      {priority.toUpperCase()}
    </span>
  )
}

export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status)
  const tone =
    label === 'Done'
      ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
      : label === 'LFG'
        ? 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200'
        : 'bg-muted text-muted-foreground'
  return (
    <span className={cn(badge, tone)} data-status={status}>
      {label}
    </span>
  )
}

/** "November 22, 2026", the same on the server and in every browser (UTC). */
export function formatLongDate(iso: string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso))
}
