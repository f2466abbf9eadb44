import { Badge } from '~/components/ui/badge'

/** The spec's status labels: Not Started → Backlog, In Progress → LFG, Completed → Done. */
export function statusLabel(status: string) {
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
