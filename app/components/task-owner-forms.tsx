import type { ReactNode } from 'react'
import { Link, useFetcher, useLocation } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { plainField, SelectField } from '~/components/forms'
import { plainTaskFields, TaskForm } from '~/components/task-form'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { Label } from '~/components/ui/label'
import { Select } from '~/components/ui/select'
import { Textarea } from '~/components/ui/textarea'
import { WorkspaceField } from '~/components/workspace-field'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import type { TaskView } from '~/services/tasks/view'
import { useIsPending } from '~/utils/pending'
import { withSearchParams } from '~/utils/search-params'

/**
 * The task modal's forms, each posting to /task/actions and returning to the page it sits on:
 * status (owner and shared people), sharing, visibility, editing (the assignee among them) and
 * deleting (owner only), and handing back (the assignee); the service checks again.
 */

/** The current URL with the modal switched to another view (`null`: the details). */
export function useViewHref(view: string | null) {
  return withSearchParams(useLocation(), { view })
}

/**
 * A form to /task/actions that returns to this page; with JavaScript, a fetcher with an error
 * toast. `children` get whether it is on its way, for the submit button.
 */
function TaskActionForm({
  intent,
  taskId,
  children,
  className,
}: {
  intent: string
  taskId: string
  children: (isPending: boolean) => ReactNode
  className?: string
}) {
  const fetcher = useFetcher<{ error?: string }>()
  return (
    <ActionForm fetcher={fetcher} action="/task/actions" intent={intent} redirectTo className={className}>
      <input type="hidden" name="taskId" value={taskId} />
      {children(fetcher.state !== 'idle')}
      {fetcher.data?.error ? (
        <p role="alert" className="text-sm text-destructive">
          {fetcher.data.error}
        </p>
      ) : null}
    </ActionForm>
  )
}

export function StatusForm({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="set-status" taskId={task.id} className="flex flex-wrap items-end gap-2">
      {(isPending) => (
        <>
          <div className="flex flex-col gap-1">
            <Label htmlFor="task-modal-status">Status</Label>
            <Select id="task-modal-status" name="status" defaultValue={task.status}>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </Select>
          </div>
          <StatusButton isPending={isPending} pendingText="Updating…" size="sm" variant="outline">
            Update status
          </StatusButton>
        </>
      )}
    </TaskActionForm>
  )
}

export function PublicToggle({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="set-public" taskId={task.id}>
      {(isPending) => (
        <>
          <input type="hidden" name="isPublic" value={task.isPublic ? 'false' : 'true'} />
          <StatusButton isPending={isPending} pendingText="Saving…" size="sm" variant="outline">
            {task.isPublic ? 'Make private' : 'Make public'}
          </StatusButton>
        </>
      )}
    </TaskActionForm>
  )
}

export function ShareForm({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="share" taskId={task.id} className="flex flex-col gap-2">
      {(isPending) => (
        <>
          <Label htmlFor="task-modal-share">Share with (e-mail addresses)</Label>
          <Textarea
            id="task-modal-share"
            name="sharedWith"
            rows={2}
            defaultValue={task.sharedWith.join('\n')}
            placeholder="grace@example.com"
          />
          {task.sharedWith.length > 0 ? (
            <ul className="flex flex-wrap gap-1 text-xs text-muted-foreground" aria-label="Shared with">
              {task.sharedWith.map((email, index) => (
                <Badge as="li" key={email} weight="normal">
                  {task.sharedWithNames[index] ?? email}
                </Badge>
              ))}
            </ul>
          ) : null}
          <StatusButton
            isPending={isPending}
            pendingText="Saving…"
            size="sm"
            variant="outline"
            className="self-start"
          >
            Save sharing
          </StatusButton>
        </>
      )}
    </TaskActionForm>
  )
}

export function EditTask({
  task,
  assignable,
}: {
  task: TaskView
  assignable: { id: string; name: string }[]
}) {
  return (
    <ViewForm intent="update" task={task} submit="Save" pendingText="Saving…">
      <TaskForm fields={plainTaskFields('edit', task)} priorities={PRIORITIES} statuses={STATUSES} />
      <SelectField
        label="Assignee"
        meta={plainField('edit-assignee', 'assigneeId', task.assigneeId ?? '')}
        emptyOption="Nobody"
        options={assignable.map((person) => ({ value: person.id, label: person.name }))}
      />
      {/* A subtask stays in its parent's workspace; a task moves with its subtasks. */}
      {task.parentTaskId ? null : (
        <WorkspaceField meta={plainField('edit-workspace', 'workspaceId', task.workspaceId)} />
      )}
    </ViewForm>
  )
}

/** The assignee's one change: giving the task back to nobody (the owner reassigns it). */
export function HandBackForm({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="hand-back" taskId={task.id} className="flex flex-wrap items-center gap-2">
      {(isPending) => (
        <>
          <span className="text-sm text-muted-foreground">Assigned to you.</span>
          <StatusButton isPending={isPending} pendingText="Handing back…" size="sm" variant="outline">
            Hand back
          </StatusButton>
        </>
      )}
    </TaskActionForm>
  )
}

export function ConfirmDelete({ task }: { task: TaskView }) {
  return (
    <ViewForm intent="delete" task={task} submit="Delete task" pendingText="Deleting…" variant="destructive">
      <p>
        Delete <strong>{task.text}</strong>?
        {task.subtaskCount > 0
          ? ` Its ${task.subtaskCount} ${task.subtaskCount === 1 ? 'subtask' : 'subtasks'} will be deleted too.`
          : ''}{' '}
        This cannot be undone.
      </p>
    </ViewForm>
  )
}

/** A view that replaces the details (edit, delete): its form, then the submit button and Cancel. */
function ViewForm({
  intent,
  task,
  submit,
  pendingText,
  variant,
  children,
}: {
  intent: 'update' | 'delete'
  task: TaskView
  submit: string
  pendingText: string
  variant?: 'destructive'
  children: ReactNode
}) {
  const cancelHref = useViewHref(null)
  const isPending = useIsPending({ formAction: '/task/actions', intent })
  return (
    <ActionForm action="/task/actions" intent={intent} redirectTo className="flex flex-col gap-4">
      <input type="hidden" name="taskId" value={task.id} />
      {children}
      <div className="flex gap-2">
        <StatusButton isPending={isPending} pendingText={pendingText} variant={variant}>
          {submit}
        </StatusButton>
        <Link to={cancelHref} preventScrollReset className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </ActionForm>
  )
}
