import { Link } from 'react-router'
import { PriorityBadge, StatusBadge } from '~/components/task-badges'
import type { TaskView } from '~/services/tasks/view'
import { formatLongDate } from '~/utils/long-date'

/** A most-recent task as the task list shows it, opening in the task modal (`?task=`). */
export function RecentTask({ title, task, empty }: { title: string; task: TaskView | null; empty: string }) {
  return (
    <article className="rounded-lg border bg-card p-5">
      <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
      {task ? (
        <div className="mt-2 flex flex-col gap-2">
          <Link
            to={{ search: `?task=${encodeURIComponent(task.id)}` }}
            preventScrollReset
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            {task.text}
          </Link>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <StatusBadge status={task.status} />
            <PriorityBadge priority={task.priority} />
            <span>{task.hrs} h</span>
            {task.subtaskCount > 0 ? (
              <span>
                {task.subtasksCompleted}/{task.subtaskCount} subtasks
              </span>
            ) : null}
            <span>
              {task.completedAt
                ? `Completed ${formatLongDate(task.completedAt)}`
                : `Created ${formatLongDate(task.createdAt)}`}
            </span>
          </div>
        </div>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">{empty}</p>
      )}
    </article>
  )
}
