import { Avatar } from '~/components/avatar'
import { Badge } from '~/components/ui/badge'
import type { Status } from '~/domain/constants'
import { describeDue } from '~/utils/due-date'

/** Status labels (docs/product-rules.md §4): Not Started → Backlog, In Progress → LFG, Completed → Done. */
function statusLabel(status: string) {
  if (status === 'In Progress') return 'LFG'
  if (status === 'Completed') return 'Done'
  return 'Backlog'
}

/** Upper case; high red, medium amber, anything else green. */
export function PriorityBadge({ priority }: { priority: string }) {
  const tone = priority === 'high' ? 'red' : priority === 'medium' ? 'amber' : 'green'
  return (
    <Badge tone={tone} data-priority={priority}>
      {priority.toUpperCase()}
    </Badge>
  )
}

export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status)
  const tone = label === 'Done' ? 'emerald' : label === 'LFG' ? 'sky' : 'neutral'
  return (
    <Badge tone={tone} data-status={status}>
      {label}
    </Badge>
  )
}

/** "Due Thu, Dec 3", "Due today" (amber) or "Overdue" (red), by the viewer's own today. */
export function DueBadge({ dueDate, status, today }: { dueDate: string; status: Status; today: string }) {
  const { state, label } = describeDue(dueDate, status, today)
  const tone = state === 'overdue' ? 'red' : state === 'today' ? 'amber' : 'neutral'
  return (
    <Badge tone={tone}>
      <time dateTime={dueDate}>{label}</time>
    </Badge>
  )
}

/** The person a task is assigned to: their avatar and name, after `label` for screen readers. */
export function Assignee({ name, image, label }: { name: string; image: string | null; label?: string }) {
  return (
    <span className="inline-flex items-center gap-1.5" data-assignee>
      {label ? <span className="sr-only">{label}</span> : null}
      <Avatar name={name} image={image} size="sm" />
      <span>{name}</span>
    </span>
  )
}
