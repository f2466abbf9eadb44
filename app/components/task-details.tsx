import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { Discussion } from '~/components/comments/comments-section'
import { Assignee, DueBadge, PriorityBadge, StatusBadge } from '~/components/task-badges'
import { HandBackForm, PublicToggle, ShareForm, StatusForm, useViewHref } from '~/components/task-owner-forms'
import { buttonClasses } from '~/components/ui/button'
import type { TaskView } from '~/services/tasks/view'
import { formatLongDate } from '~/utils/long-date'

/** What the modal shows of a task the viewer may read: the loader's `modal` when it was found. */
export interface LoadedTask {
  task: TaskView
  subtasks: TaskView[]
  /** Whom the owner may assign it to (the owner first); empty for anyone else. */
  assignable: { id: string; name: string }[]
  /** Assigned to the viewer, who is not its owner: they may hand it back. */
  isAssignee: boolean
  isOwner: boolean
  canSetStatus: boolean
  isSignedIn: boolean
  /** The viewer's date, `YYYY-MM-DD`, which the due date is read against. */
  today: string
  /** Its workspace, named when it is one of the viewer's but not the one they work in; else null. */
  workspace?: { id: string; name: string } | null
  discussion: Discussion
}

/**
 * The modal's main view: the task's fields, its subtasks, the status form for those who may move
 * it, the owner's controls, and the comments below.
 */
export function TaskDetails({ modal, comments }: { modal: LoadedTask; comments?: ReactNode }) {
  const { task, subtasks } = modal
  const editHref = useViewHref('edit')
  const deleteHref = useViewHref('delete')
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-2">
        <PriorityBadge priority={task.priority} />
        <StatusBadge status={task.status} />
        <span className="text-xs text-muted-foreground">
          {task.hrs} {task.hrs === 1 ? 'hour' : 'hours'}
        </span>
      </div>
      {task.details ? <p className="whitespace-pre-wrap break-words">{task.details}</p> : null}
      {task.refLink ? (
        <p>
          <a
            href={task.refLink}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all text-primary underline-offset-4 hover:underline"
          >
            {task.refLink}
          </a>
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {modal.workspace ? (
          <>
            <dt className="text-muted-foreground">Workspace</dt>
            <dd>{modal.workspace.name}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Visibility</dt>
        <dd>{task.isPublic ? 'Public' : 'Private'}</dd>
        {task.dueDate ? (
          <>
            <dt className="text-muted-foreground">Due</dt>
            <dd>
              <DueBadge dueDate={task.dueDate} status={task.status} today={modal.today} />
            </dd>
          </>
        ) : null}
        {task.assigneeName ? (
          <>
            <dt className="text-muted-foreground">Assignee</dt>
            <dd>
              <Assignee name={task.assigneeName} image={task.assigneeImage} />
            </dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Created by</dt>
        <dd>{task.ownerName || 'Unknown User'}</dd>
        {task.sharedWithNames.length > 0 ? (
          <>
            <dt className="text-muted-foreground">Shared with</dt>
            <dd>{task.sharedWithNames.join(', ')}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Created</dt>
        <dd>
          <time dateTime={task.createdAt}>{formatLongDate(task.createdAt)}</time>
        </dd>
      </dl>

      {subtasks.length > 0 ? (
        <section aria-labelledby="subtasks-title">
          <h3 id="subtasks-title" className="text-sm font-semibold">
            Subtasks ({task.subtasksCompleted}/{task.subtaskCount} done)
          </h3>
          <ul className="mt-2 flex flex-col gap-1">
            {subtasks.map((subtask) => (
              <li key={subtask.id} className="flex items-center gap-2 text-sm">
                <StatusBadge status={subtask.status} />
                <Link to={`?task=${subtask.id}`} preventScrollReset className="hover:underline">
                  {subtask.text}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {modal.canSetStatus ? <StatusForm task={task} /> : null}
      {modal.isAssignee ? <HandBackForm task={task} /> : null}

      {modal.isOwner ? (
        <div className="flex flex-col gap-4 border-t pt-4">
          <ShareForm task={task} />
          <div className="flex flex-wrap gap-2">
            <Link
              to={editHref}
              preventScrollReset
              className={buttonClasses('outline', 'sm')}
              data-opens-view="edit"
            >
              Edit
            </Link>
            <PublicToggle task={task} />
            <Link
              to={deleteHref}
              preventScrollReset
              className={buttonClasses('destructive', 'sm')}
              data-opens-view="delete"
            >
              Delete
            </Link>
          </div>
        </div>
      ) : null}

      {comments}
    </div>
  )
}
