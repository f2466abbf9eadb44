import {
  createContext,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react'
import { Link, useFetcher, useLocation, useNavigate } from 'react-router'
import { ActionForm } from '~/components/action-form'
import type { Discussion } from '~/components/comments/comments-section'
import { formatLongDate, PriorityBadge, StatusBadge } from '~/components/task-badges'
import { plainTaskFields, TaskForm } from '~/components/task-form'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { Label } from '~/components/ui/label'
import { Select } from '~/components/ui/select'
import { Textarea } from '~/components/ui/textarea'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import type { TaskView } from '~/services/tasks.server'
import { useIsPending } from '~/utils/pending'
import { withSearchParams } from '~/utils/search-params'

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

/** The current URL without the modal's parameters: where closing goes. */
function useCloseHref() {
  return withSearchParams(useLocation(), { task: null, view: null })
}

function useHrefWith(view: string | null) {
  return withSearchParams(useLocation(), { view })
}

/**
 * Tells the modal that its task is gone (deleted, or no longer shared with the viewer) when a
 * part of it finds out, as the comments' polling does.
 */
const TaskGoneContext = createContext<() => void>(() => {})

export function useReportTaskGone() {
  return useContext(TaskGoneContext)
}

/**
 * The task-details modal, addressed by `?task=<id>` on any page. The server renders it open (a
 * non-modal <dialog open>, usable without JavaScript, with a link behind it as the overlay);
 * after hydration it becomes a real modal: focus trapped, Escape and the backdrop close it, and
 * focus returns to what opened it. `notice` is the page's flash message without JavaScript,
 * shown inside the dialog because the overlay covers the page's own banner.
 */
export function TaskModal({
  modal,
  comments,
  notice,
}: {
  modal: TaskModalData
  comments?: ReactNode
  notice?: ReactNode
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const body = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  const closeHref = useCloseHref()
  const location = useLocation()
  const view = new URLSearchParams(location.search).get('view')
  const [isGone, setIsGone] = useState(false)
  const reportGone = useCallback(() => setIsGone(true), [])

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null
    // Someone who clicked into the server-rendered dialog before the scripts came keeps their
    // place: showModal() would move focus to the first control (the X).
    const isFocusInside = focused !== null && element.contains(focused)
    const opener = isFocusInside ? null : focused
    if (!element.matches(':modal')) {
      element.close()
      element.showModal()
      if (isFocusInside) focused.focus({ preventScroll: true })
    }
    return () => opener?.focus()
  }, [])

  useFocusOnViewChange(body, view)

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
            className={buttonClasses('ghost', 'icon-sm')}
            aria-label="Close"
          >
            <Icon name="close" className="size-4" />
          </Link>
        </div>
        {notice}
        <div className="p-5" ref={body}>
          {isGone && !('error' in modal) ? <TaskGoneAlert /> : null}
          <TaskGoneContext value={reportGone}>
            {'error' in modal ? (
              <p className="text-muted-foreground">
                The task does not exist, or you do not have access to it.
              </p>
            ) : view === 'edit' && modal.isOwner ? (
              <EditTask task={modal.task} />
            ) : view === 'delete' && modal.isOwner ? (
              <ConfirmDelete task={modal.task} />
            ) : (
              <TaskDetails modal={modal} comments={comments} />
            )}
          </TaskGoneContext>
        </div>
      </dialog>
    </>
  )
}

/** Said at the top of an open modal whose task was deleted or unshared meanwhile. */
function TaskGoneAlert() {
  return (
    <div role="alert" className="mb-5 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
      <p className="font-semibold">Task not found</p>
      <p className="text-muted-foreground">It was deleted, or it is no longer shared with you.</p>
    </div>
  )
}

/**
 * Switching between the details and the edit or delete view replaces what had focus; without
 * help it falls to <body>. Entering a view focuses its first control, leaving it (Save, Cancel)
 * focuses the link that opened it. The first render leaves focus alone.
 */
function useFocusOnViewChange(body: RefObject<HTMLDivElement | null>, view: string | null) {
  const previous = useRef(view)
  useEffect(() => {
    const left = previous.current
    previous.current = view
    const element = body.current
    if (left === view || !element) return
    const active = document.activeElement
    if (active && active !== document.body && element.contains(active)) return
    const target =
      view === 'edit' || view === 'delete'
        ? element.querySelector<HTMLElement>('input:not([type=hidden]), textarea, select, button')
        : element.querySelector<HTMLElement>(`[data-opens-view="${left}"]`)
    target?.focus()
  }, [body, view])
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

function StatusForm({ task }: { task: TaskView }) {
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

function PublicToggle({ task }: { task: TaskView }) {
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

function ShareForm({ task }: { task: TaskView }) {
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
                <Badge as="li" key={email} className="font-normal">
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

function EditTask({ task }: { task: TaskView }) {
  const cancelHref = useHrefWith(null)
  const isPending = useIsPending({ formAction: '/task/actions', intent: 'update' })
  return (
    <ActionForm action="/task/actions" intent="update" redirectTo className="flex flex-col gap-4">
      <input type="hidden" name="taskId" value={task.id} />
      <TaskForm fields={plainTaskFields('edit', task)} priorities={PRIORITIES} statuses={STATUSES} />
      <div className="flex gap-2">
        <StatusButton isPending={isPending} pendingText="Saving…">
          Save
        </StatusButton>
        <Link to={cancelHref} preventScrollReset className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </ActionForm>
  )
}

function ConfirmDelete({ task }: { task: TaskView }) {
  const cancelHref = useHrefWith(null)
  const isPending = useIsPending({ formAction: '/task/actions', intent: 'delete' })
  return (
    <ActionForm action="/task/actions" intent="delete" redirectTo className="flex flex-col gap-4">
      <input type="hidden" name="taskId" value={task.id} />
      <p>
        Delete <strong>{task.text}</strong>?
        {task.subtaskCount > 0
          ? ` Its ${task.subtaskCount} ${task.subtaskCount === 1 ? 'subtask' : 'subtasks'} will be deleted too.`
          : ''}{' '}
        This cannot be undone.
      </p>
      <div className="flex gap-2">
        <StatusButton isPending={isPending} pendingText="Deleting…" variant="destructive">
          Delete task
        </StatusButton>
        <Link to={cancelHref} preventScrollReset className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </ActionForm>
  )
}
