import type { ChangeEvent, MouseEvent, ReactNode } from 'react'
import { useFetchers, useLocation, useNavigate, useSubmit } from 'react-router'
import { ListActionForm, useListFormFields } from '~/components/action-form'
import { Assignee, DueBadge, PriorityBadge, StatusBadge } from '~/components/task-badges'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { STATUSES, type Status } from '~/domain/constants'
import type { TaskListItem } from '~/services/tasks/view'
import { isPlainLeftClick } from '~/utils/plain-click'
import { withSearchParams } from '~/utils/search-params'

export function TaskGroup({
  title,
  tasks,
  rows,
  empty,
  footer,
}: {
  title: string
  tasks: TaskListItem[]
  rows: TaskRows
  empty: string
  footer?: ReactNode
}) {
  const id = `group-${title.toLowerCase().replaceAll(' ', '-')}`
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title} <span className="text-sm font-normal text-muted-foreground">({tasks.length})</span>
      </h2>
      {tasks.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {empty}
        </p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {tasks.map((task) => (
            <TaskRow key={task.id} task={task} rows={rows} />
          ))}
        </ul>
      )}
      {footer}
    </section>
  )
}

/**
 * What every row needs from the router, asked once for the whole list: a page of 20 rows would
 * otherwise hold 20 links, 20 router forms and 20 fetchers, each resolving its route and reading
 * the page's matches on every render, on the server too. The rows are plain links and
 * `<ListActionForm>`s (so they work without JavaScript as they are), and these open a task in
 * place and post a status as a fetcher would: a plain left click navigates within the app like a
 * `<Link>`, anything else (a new tab, a download) is the browser's.
 */
export function useTaskRows(today: string) {
  const location = useLocation()
  const navigate = useNavigate()
  const submit = useSubmit()
  const fetchers = useFetchers()
  // Optimistic: while a change is on its way, its row already shows the new status.
  const pendingStatus = new Map<string, Status>()
  for (const fetcher of fetchers) {
    const taskId = fetcher.key.startsWith(STATUS_FETCHER) ? fetcher.formData?.get('taskId') : null
    const status = STATUSES.find((each) => each === fetcher.formData?.get('status'))
    if (typeof taskId === 'string' && status) pendingStatus.set(taskId, status)
  }
  return {
    today,
    form: useListFormFields(true),
    hrefOf: (taskId: string) => withSearchParams(location, { task: taskId }),
    statusOf: (task: TaskListItem) => pendingStatus.get(task.id) ?? task.status,
    openInPlace: (event: MouseEvent<HTMLAnchorElement>) => {
      if (!isPlainLeftClick(event)) return
      event.preventDefault()
      void navigate(event.currentTarget.getAttribute('href') ?? '', { preventScrollReset: true })
    },
    submitStatus: (event: ChangeEvent<HTMLSelectElement>) => {
      const { form } = event.currentTarget
      const taskId = form?.elements.namedItem('taskId')
      if (!form || !(taskId instanceof HTMLInputElement)) return
      void submit(form, { navigate: false, fetcherKey: `${STATUS_FETCHER}${taskId.value}` })
    },
  }
}

type TaskRows = ReturnType<typeof useTaskRows>

const STATUS_FETCHER = 'task-status:'

/**
 * A task in the list: its title opens the modal, its status changes in place. Without
 * JavaScript the form posts like any other and a Save button sends it.
 */
function TaskRow({ task, rows }: { task: TaskListItem; rows: TaskRows }) {
  return (
    <li className="flex flex-wrap items-center gap-3 p-3" data-testid="task-row">
      <div className="min-w-0 flex-1">
        <a
          href={rows.hrefOf(task.id)}
          onClick={rows.openInPlace}
          // `j` and `k` move the focus between these (app/components/keyboard/).
          data-keyboard-row
          className="font-medium break-words hover:underline"
        >
          {task.text}
        </a>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <PriorityBadge priority={task.priority} />
          <StatusBadge status={rows.statusOf(task)} />
          {/* Each text one string: pieces would each be a text node, with a marker between them. */}
          <span>{`${task.hrs} ${task.hrs === 1 ? 'hour' : 'hours'}`}</span>
          {task.subtaskCount > 0 ? (
            <span>{`${task.subtasksCompleted}/${task.subtaskCount} subtasks done`}</span>
          ) : null}
          {task.dueDate ? (
            <DueBadge dueDate={task.dueDate} status={rows.statusOf(task)} today={rows.today} />
          ) : null}
          {task.isPublic ? <span>Public</span> : null}
          <span>{`by ${task.ownerName}`}</span>
          {task.assigneeName ? (
            <Assignee name={task.assigneeName} image={task.assigneeImage} label="Assigned to" />
          ) : null}
        </div>
      </div>
      <ListActionForm
        fields={rows.form}
        action="/task/actions"
        intent="set-status"
        className="flex items-center gap-2"
      >
        <input type="hidden" name="taskId" value={task.id} />
        <Select
          aria-label={`Status of ${task.text}`}
          name="status"
          defaultValue={task.status}
          size="sm"
          onChange={rows.submitStatus}
        >
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Select>
        <noscript>
          <Button type="submit" size="sm" variant="outline">
            Save
          </Button>
        </noscript>
      </ListActionForm>
    </li>
  )
}
