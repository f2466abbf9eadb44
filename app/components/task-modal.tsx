import { type ReactNode, useEffect, useRef } from 'react'
import { Form, Link, useFetcher, useLocation, useNavigate } from 'react-router'
import type { Discussion } from '~/components/comments/comments-section'
import { CsrfInput } from '~/components/csrf-input'
import { formatLongDate, PriorityBadge, StatusBadge } from '~/components/task-badges'
import { Button, buttonClasses } from '~/components/ui/button'
import { Input, Label } from '~/components/ui/input'
import type { TaskView } from '~/services/tasks.server'
import { cn } from '~/utils/cn'

export type TaskModalData =
  | { error: string; taskId: string }
  | {
      task: TaskView
      subtasks: TaskView[]
      isOwner: boolean
      canSetStatus: boolean
      isSignedIn: boolean
      discussion: Discussion
    }

const STATUSES = ['Not Started', 'In Progress', 'Completed'] as const
const PRIORITIES = ['high', 'medium', 'low'] as const

/** The current URL without the modal's parameters: where closing goes. */
function useCloseHref() {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  params.delete('task')
  params.delete('view')
  const search = params.toString()
  return location.pathname + (search ? `?${search}` : '')
}

function useHrefWith(view: string | null) {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  if (view) params.set('view', view)
  else params.delete('view')
  return `${location.pathname}?${params}`
}

/**
 * The task-details modal, addressed by `?task=<id>` on any page. The server renders it open (a
 * non-modal <dialog open>, usable without JavaScript, with a link behind it as the overlay);
 * after hydration it becomes a real modal: focus trapped, Escape and the backdrop close it, and
 * focus returns to what opened it.
 */
export function TaskModal({ modal, comments }: { modal: TaskModalData; comments?: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  const closeHref = useCloseHref()
  const location = useLocation()
  const view = new URLSearchParams(location.search).get('view')

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!element.matches(':modal')) {
      element.close()
      element.showModal()
    }
    return () => opener?.focus()
  }, [])

  const close = () => void navigate(closeHref, { preventScrollReset: true })
  const titleId = 'task-modal-title'

  return (
    <>
      <Link
        to={closeHref}
        preventScrollReset
        aria-hidden
        tabIndex={-1}
        className="fixed inset-0 z-40 bg-black/50"
        data-testid="task-modal-overlay"
      />
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; the keyboard closes the dialog with Escape (onCancel) */}
      <dialog
        ref={dialog}
        open
        aria-labelledby={titleId}
        className="fixed inset-0 z-50 m-auto max-h-[90dvh] w-[min(42rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border bg-background p-0 text-foreground shadow-xl backdrop:bg-black/50"
        onCancel={(event) => {
          event.preventDefault()
          close()
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) close()
        }}
      >
        <div className="flex items-start justify-between gap-4 border-b p-5">
          <h2 id={titleId} className="text-lg font-semibold break-words">
            {'error' in modal ? 'Task not found' : modal.task.text}
          </h2>
          <Link
            to={closeHref}
            preventScrollReset
            className="inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-muted"
            aria-label="Close"
          >
            <svg
              aria-hidden
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </Link>
        </div>
        <div className="p-5">
          {'error' in modal ? (
            <p className="text-muted-foreground">The task does not exist, or you do not have access to it.</p>
          ) : view === 'edit' && modal.isOwner ? (
            <EditTask task={modal.task} />
          ) : view === 'delete' && modal.isOwner ? (
            <ConfirmDelete task={modal.task} />
          ) : (
            <TaskDetails modal={modal} comments={comments} />
          )}
        </div>
      </dialog>
    </>
  )
}

type Loaded = Exclude<TaskModalData, { error: string }>

function TaskDetails({ modal, comments }: { modal: Loaded; comments?: ReactNode }) {
  const { task, subtasks } = modal
  const editHref = useHrefWith('edit')
  const deleteHref = useHrefWith('delete')
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
        <dt className="text-muted-foreground">Visibility</dt>
        <dd>{task.isPublic ? 'Public' : 'Private'}</dd>
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

      {modal.isOwner ? (
        <div className="flex flex-col gap-4 border-t pt-4">
          <ShareForm task={task} />
          <div className="flex flex-wrap gap-2">
            <Link to={editHref} preventScrollReset className={buttonClasses('outline', 'sm')}>
              Edit
            </Link>
            <PublicToggle task={task} />
            <Link to={deleteHref} preventScrollReset className={buttonClasses('destructive', 'sm')}>
              Delete
            </Link>
          </div>
        </div>
      ) : null}

      {comments}
    </div>
  )
}

/** A form to /task/actions that returns to this page; with JavaScript, a fetcher with an error toast. */
function TaskActionForm({
  intent,
  taskId,
  children,
  className,
}: {
  intent: string
  taskId: string
  children: ReactNode
  className?: string
}) {
  const fetcher = useFetcher<{ error?: string }>()
  const location = useLocation()
  return (
    <fetcher.Form method="post" action="/task/actions" className={className}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="taskId" value={taskId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {children}
      {fetcher.data?.error ? (
        <p role="alert" className="text-sm text-destructive">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

function StatusForm({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="set-status" taskId={task.id} className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <Label htmlFor="task-modal-status">Status</Label>
        <select
          id="task-modal-status"
          name="status"
          defaultValue={task.status}
          className="h-9 rounded-md border bg-background px-2 text-sm"
        >
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" size="sm" variant="outline">
        Update status
      </Button>
    </TaskActionForm>
  )
}

function PublicToggle({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="set-public" taskId={task.id}>
      <input type="hidden" name="isPublic" value={task.isPublic ? 'false' : 'true'} />
      <Button type="submit" size="sm" variant="outline">
        {task.isPublic ? 'Make private' : 'Make public'}
      </Button>
    </TaskActionForm>
  )
}

function ShareForm({ task }: { task: TaskView }) {
  return (
    <TaskActionForm intent="share" taskId={task.id} className="flex flex-col gap-2">
      <Label htmlFor="task-modal-share">Share with (e-mail addresses)</Label>
      <textarea
        id="task-modal-share"
        name="sharedWith"
        rows={2}
        defaultValue={task.sharedWith.join('\n')}
        placeholder="grace@example.com"
        className="rounded-md border bg-background px-3 py-2 text-sm"
      />
      {task.sharedWith.length > 0 ? (
        <ul className="flex flex-wrap gap-1 text-xs text-muted-foreground" aria-label="Shared with">
          {task.sharedWith.map((email, index) => (
            <li key={email} className="rounded-full bg-muted px-2 py-0.5">
              {task.sharedWithNames[index] ?? email}
            </li>
          ))}
        </ul>
      ) : null}
      <Button type="submit" size="sm" variant="outline" className="self-start">
        Save sharing
      </Button>
    </TaskActionForm>
  )
}

function EditTask({ task }: { task: TaskView }) {
  const cancelHref = useHrefWith(null)
  const location = useLocation()
  return (
    <Form method="post" action="/task/actions" className="flex flex-col gap-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="taskId" value={task.id} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="edit-text">Title</Label>
        <Input id="edit-text" name="text" defaultValue={task.text} required minLength={3} maxLength={200} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="edit-details">Details</Label>
        <textarea
          id="edit-details"
          name="details"
          defaultValue={task.details ?? ''}
          maxLength={500}
          rows={3}
          className="rounded-md border bg-background px-3 py-2 text-sm"
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="edit-ref">Reference link</Label>
        <Input id="edit-ref" name="refLink" type="url" defaultValue={task.refLink ?? ''} />
      </div>
      <div className="grid grid-cols-3 gap-3">
        <SelectField
          id="edit-priority"
          name="priority"
          label="Priority"
          value={task.priority}
          options={PRIORITIES}
        />
        <SelectField id="edit-status" name="status" label="Status" value={task.status} options={STATUSES} />
        <div className="flex flex-col gap-2">
          <Label htmlFor="edit-hrs">Hours</Label>
          <Input id="edit-hrs" name="hrs" type="number" min={1} max={8} step={1} defaultValue={task.hrs} />
        </div>
      </div>
      <div className="flex gap-2">
        <Button type="submit">Save</Button>
        <Link to={cancelHref} preventScrollReset className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </Form>
  )
}

function SelectField({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string
  name: string
  label: string
  value: string
  options: readonly string[]
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        className={cn('h-9 rounded-md border bg-background px-2 text-sm')}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  )
}

function ConfirmDelete({ task }: { task: TaskView }) {
  const cancelHref = useHrefWith(null)
  const location = useLocation()
  return (
    <Form method="post" action="/task/actions" className="flex flex-col gap-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="taskId" value={task.id} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <p>
        Delete <strong>{task.text}</strong>?
        {task.subtaskCount > 0
          ? ` Its ${task.subtaskCount} ${task.subtaskCount === 1 ? 'subtask' : 'subtasks'} will be deleted too.`
          : ''}{' '}
        This cannot be undone.
      </p>
      <div className="flex gap-2">
        <Button type="submit" variant="destructive">
          Delete task
        </Button>
        <Link to={cancelHref} preventScrollReset className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </Form>
  )
}
