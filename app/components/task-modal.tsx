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
import { Link, useLocation, useNavigate } from 'react-router'
import { type LoadedTask, TaskDetails } from '~/components/task-details'
import { ConfirmDelete, EditTask } from '~/components/task-owner-forms'
import { buttonClasses } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { withSearchParams } from '~/utils/search-params'

export type TaskModalData = { error: string; taskId: string } | LoadedTask

/** The current URL without the modal's parameters: where closing goes. */
function useCloseHref() {
  return withSearchParams(useLocation(), { task: null, view: null })
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
              <EditTask task={modal.task} assignable={modal.assignable} />
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
