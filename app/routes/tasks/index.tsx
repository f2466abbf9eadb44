import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react'
import { Form, Link, useLocation } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import {
  CheckboxField,
  ErrorList,
  type FieldConstraint,
  type FormReply,
  formErrors,
  plainField,
  repliedField,
  SelectField,
  type SelectOption,
} from '~/components/forms'
import { LiveUpdatesPaused } from '~/components/live/live-updates-paused'
import { ShareWithField, TASK_FIELD_CONSTRAINTS, TaskForm, type TaskFormFields } from '~/components/task-form'
import { Button, buttonClasses, StatusButton } from '~/components/ui/button'
import { useWorkspaces, WorkspaceField } from '~/components/workspace-field'
import { database } from '~/db/client.server'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { handleForm } from '~/http/form-action.server'
import { listTaskGroups } from '~/services/tasks/list.server'
import { listParentCandidates } from '~/services/tasks/reads.server'
import { TaskFieldsSchema, TaskListFiltersSchema } from '~/services/tasks/task-schemas'
import { createTask } from '~/services/tasks/writes.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { withSearchParams } from '~/utils/search-params'
import { todayFor } from '~/utils/time-zone.server'
import { useHydrated } from '~/utils/use-hydrated'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import { TaskGroup, useTaskRows } from './+parts/task-group'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = () => [{ title: 'Task List | Threadwork' }]

const PAGE_SIZE = 50

// A hand-edited URL with a value the list does not know shows the list without that filter.
const filter = TaskListFiltersSchema.shape
const FiltersSchema = z.object({
  status: filter.status.catch(undefined),
  priority: filter.priority.catch(undefined),
  due: filter.due.catch(undefined),
  assignee: filter.assignee.catch(undefined),
  sort: filter.sort.catch(undefined),
  page: z.coerce.number().int().min(1).catch(1),
})

/** The list's "Due", "Assigned to" and "Sort" choices: each a value of the URL and its label. */
const DUE_OPTIONS = [
  { value: 'overdue', label: 'Overdue' },
  { value: 'week', label: 'Due this week' },
]
const ASSIGNEE_OPTIONS = [{ value: 'me', label: 'Me' }]
const SORT_OPTIONS = [{ value: 'due', label: 'Due date' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const filters = FiltersSchema.parse(Object.fromEntries(url.searchParams))
  const db = database()
  const today = todayFor(request.headers)
  const page = { limit: PAGE_SIZE, offset: (filters.page - 1) * PAGE_SIZE }
  // The list's first group and the parents a new task may hang under are the workspace's the
  // person works in (the header's switcher); what is shared with them and public is not.
  const [groups, parents] = await Promise.all([
    listTaskGroups(db, user, user.activeWorkspaceId, filters, page, today),
    listParentCandidates(db, user.activeWorkspaceId),
  ])
  return {
    groups,
    parents,
    filters,
    today,
    pageCount: Math.max(1, Math.ceil(groups.mine.total / PAGE_SIZE)),
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  return handleForm(await readFormData(request), TaskFieldsSchema, async (fields) => {
    // A form without a workspace creates in the one the person works in.
    const task = await createTask(database(), user, {
      ...fields,
      workspaceId: fields.workspaceId ?? user.activeWorkspaceId,
    })
    return redirectWithToast(`/task?task=${task.id}`, {
      type: 'success',
      title: 'Task created',
      description: task.text,
    })
  })
}

/** Live updates load after the page hydrates: they render nothing (task-list-live-updates.tsx). */
const TaskListLiveUpdates = lazy(() => import('~/components/live/task-list-live-updates'))

export default function TaskList({ loaderData, actionData: answered }: Route.ComponentProps) {
  const { groups, filters, pageCount, parents, today } = loaderData
  const actionData = useKeptActionData(answered)
  const [isPaused, setPaused] = useState(false)
  const rows = useTaskRows(today)
  const { workspaces, activeWorkspaceId } = useWorkspaces()
  const team = workspaces.find((workspace) => workspace.id === activeWorkspaceId && !workspace.isPersonal)
  return (
    <main className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-[22rem_1fr]">
      <aside className="order-2 lg:order-1">
        <CreateTask parents={parents} reply={actionData?.result} />
      </aside>
      <div className="order-1 flex flex-col gap-8 lg:order-2">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-semibold">Task List</h1>
            <LiveUpdatesPaused isPaused={isPaused} />
            <Suspense fallback={null}>
              <TaskListLiveUpdates onPausedChange={setPaused} />
            </Suspense>
          </div>
          <Filters filters={filters} />
        </div>
        <TaskGroup
          // A team's tasks are everyone's in it: named after the team, not as the viewer's own.
          title={team ? `${team.name} tasks` : 'My tasks'}
          tasks={groups.mine.tasks}
          rows={rows}
          empty={
            isFiltered(filters) ? 'No tasks match these filters.' : 'No tasks yet. Create your first one.'
          }
          footer={
            pageCount > 1 ? (
              <Pager page={filters.page} pageCount={pageCount} total={groups.mine.total} />
            ) : null
          }
        />
        <TaskGroup
          title="Shared with me"
          tasks={groups.shared}
          rows={rows}
          empty="Nothing has been shared with you yet."
        />
        <TaskGroup
          title="Public"
          tasks={groups.public}
          rows={rows}
          empty="No public tasks from others yet."
        />
      </div>
    </main>
  )
}

type ListFilters = z.output<typeof FiltersSchema>

const isFiltered = ({ status, priority, due, assignee }: ListFilters) =>
  Boolean(status || priority || due || assignee)

function Filters({ filters }: { filters: ListFilters }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter tasks">
      <FilterSelect name="status" label="Status" value={filters.status} options={STATUSES} />
      <FilterSelect name="priority" label="Priority" value={filters.priority} options={PRIORITIES} />
      <FilterSelect name="due" label="Due" value={filters.due} options={DUE_OPTIONS} />
      <FilterSelect
        name="assignee"
        label="Assigned to"
        value={filters.assignee}
        options={ASSIGNEE_OPTIONS}
        empty="Anyone"
      />
      <FilterSelect name="sort" label="Sort" value={filters.sort} options={SORT_OPTIONS} empty="Newest" />
      <Button type="submit" variant="outline">
        Filter
      </Button>
      {isFiltered(filters) || filters.sort ? (
        <Link to="/task" className={buttonClasses('ghost')}>
          Clear
        </Link>
      ) : null}
    </Form>
  )
}

function FilterSelect({
  name,
  label,
  value,
  options,
  empty = 'All',
}: {
  name: string
  label: string
  value?: string
  options: readonly SelectOption[]
  /** What the choice of none is called. */
  empty?: string
}) {
  return (
    <SelectField
      label={label}
      meta={plainField(`filter-${name}`, name, value ?? '')}
      options={options}
      emptyOption={empty}
    />
  )
}

function Pager({ page, pageCount, total }: { page: number; pageCount: number; total: number }) {
  const location = useLocation()
  const hrefFor = (target: number) => withSearchParams(location, { page: String(target), task: null })
  return (
    <nav aria-label="My tasks pages" className="mt-3 flex items-center justify-between text-sm">
      <span className="text-muted-foreground">
        Page {page} of {pageCount} · {total} tasks
      </span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} className={buttonClasses('outline', 'sm')}>
            Previous
          </Link>
        ) : null}
        {page < pageCount ? (
          <Link to={hrefFor(page + 1)} className={buttonClasses('outline', 'sm')}>
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  )
}

/** What a blank create form starts with. */
const NEW_TASK = { priority: 'medium', status: 'Not Started', hrs: '1' }

/**
 * The create form. The server validates it (the action's schema): a refused form comes back with
 * what was sent and each field's errors. The browser checks the constraints only where no script
 * runs, because with JavaScript the server's answer, shown beside each field, is the one to read.
 * Neither conform nor zod reaches the browser for it: they would be most of the page's JavaScript
 * (docs/product-rules.md §6).
 */
function CreateTask({
  parents,
  reply,
}: {
  parents: { id: string; text: string }[]
  reply: FormReply | undefined
}) {
  const isPending = useIsPending({ formAction: '/task' })
  const isHydrated = useHydrated()
  const { activeWorkspaceId } = useWorkspaces()
  const form = useRef<HTMLFormElement>(null)
  const answer = useAnswerKey(form, reply, isPending)
  const field = (name: string, initialValue?: string, constraint?: FieldConstraint) =>
    repliedField(reply, `create-task-${name}`, name, initialValue, constraint)
  const fields: TaskFormFields = {
    // No minLength: a short title reaches the server, which says so in the product's words.
    text: field('text', '', { required: true, maxLength: TASK_FIELD_CONSTRAINTS.text.maxLength }),
    details: field('details', '', TASK_FIELD_CONSTRAINTS.details),
    refLink: field('refLink', undefined, TASK_FIELD_CONSTRAINTS.refLink),
    priority: field('priority', NEW_TASK.priority),
    status: field('status', NEW_TASK.status),
    hrs: field('hrs', NEW_TASK.hrs, TASK_FIELD_CONSTRAINTS.hrs),
    dueDate: field('dueDate', ''),
  }

  return (
    <section aria-labelledby="create-task-title" className="rounded-lg border bg-card p-5">
      <h2 id="create-task-title" className="text-lg font-semibold">
        New task
      </h2>
      <ActionForm
        ref={form}
        id="create-task"
        action="/task"
        // Each answer remounts the fields: they show what a refusal sent back, or start blank.
        key={answer}
        noValidate={isHydrated}
        className="mt-4 flex flex-col gap-4"
      >
        <ErrorList id="create-task-form-error" errors={formErrors(reply)} />
        <TaskForm fields={fields} priorities={PRIORITIES} statuses={STATUSES} isNew />
        <WorkspaceField
          // A new one with each switch of workspace: a select keeps the choice it was mounted with,
          // and a new task goes where the person now works.
          key={activeWorkspaceId}
          meta={field('workspaceId', activeWorkspaceId)}
          hidden={activeWorkspaceId}
        />
        <ShareWithField meta={field('sharedWith')} />
        {parents.length > 0 ? (
          <SelectField
            label="Subtask of"
            meta={field('parentTaskId', '')}
            options={parents.map((parent) => ({ value: parent.id, label: parent.text }))}
            emptyOption="None (a top-level task)"
          />
        ) : null}
        <CheckboxField label="Public (anyone with the link can read it)" meta={field('isPublic')} />
        <StatusButton isPending={isPending} pendingText="Creating…">
          Create task
        </StatusButton>
      </ActionForm>
    </section>
  )
}

/**
 * A key that changes with each answer to the form: a refusal (its fields show what was sent), or
 * a task created (a redirect, so no answer: the form starts blank). After a refusal, focus moves
 * to the first invalid field, as it would had the browser checked the form.
 */
function useAnswerKey(
  form: RefObject<HTMLFormElement | null>,
  reply: FormReply | undefined,
  isPending: boolean,
) {
  const [key, setKey] = useState(0)
  const [previous, setPrevious] = useState({ reply, isPending })
  if (previous.reply !== reply || previous.isPending !== isPending) {
    setPrevious({ reply, isPending })
    if (previous.reply !== reply || (previous.isPending && !reply)) setKey(key + 1)
  }
  useEffect(() => {
    if (reply) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [form, reply])
  return key
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
