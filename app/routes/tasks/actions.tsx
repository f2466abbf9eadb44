import { requireUser } from '~/auth/context.server'
import { ChangeRefusedScreen, NotFoundScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { StatusSchema, TaskUpdateSchema } from '~/services/tasks/task-schemas'
import { deleteTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { safeRedirect } from '~/utils/redirect.server'
import { withSearchParams } from '~/utils/search-params'
import { z } from '~/utils/zod'
import type { Route } from './+types/actions'

/**
 * Changes to an existing task, from the task modal and the list's rows, on any page. Without
 * JavaScript each form posts here and comes back to the page it was on; with JavaScript a fetcher
 * posts and the page revalidates. Creating a task lives with the /task page's own form.
 */
const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('update'), taskId: z.string().min(1) }).extend(TaskUpdateSchema.shape),
  z.object({ intent: z.literal('set-status'), taskId: z.string().min(1), status: StatusSchema }),
  z.object({
    intent: z.literal('share'),
    taskId: z.string().min(1),
    sharedWith: TaskUpdateSchema.shape.sharedWith,
  }),
  z.object({
    intent: z.literal('set-public'),
    taskId: z.string().min(1),
    isPublic: z.enum(['true', 'false']).transform((value) => value === 'true'),
  }),
  z.object({ intent: z.literal('delete'), taskId: z.string().min(1) }),
  z.object({ intent: z.literal('hand-back'), taskId: z.string().min(1) }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const formData = await readFormData(request)
  const back = safeRedirect(formData.get('redirectTo'), '/task')
  const db = database()
  const changed = (title: string) => redirectWithToast(withoutEditing(back), { type: 'success', title })
  return handleForm(
    formData,
    Intent,
    {
      update: async ({ intent: _intent, taskId, ...changes }) => {
        await updateTask(db, user, taskId, changes)
        return changed('Task updated')
      },
      'set-status': async ({ taskId, status }) => {
        await setTaskStatus(db, user, taskId, status)
        return changed('Status updated')
      },
      share: async ({ taskId, sharedWith }) => {
        await updateTask(db, user, taskId, { sharedWith: sharedWith ?? [] })
        return changed('Sharing updated')
      },
      'set-public': async ({ taskId, isPublic }) => {
        await updateTask(db, user, taskId, { isPublic })
        return changed('Visibility updated')
      },
      delete: async ({ taskId }) => {
        await deleteTask(db, user, taskId)
        return redirectWithToast(withoutTask(back), { type: 'success', title: 'Task deleted' })
      },
      'hand-back': async ({ taskId }) => {
        await updateTask(db, user, taskId, { assigneeId: null })
        return changed('Task handed back')
      },
    },
    { refusal: (error) => ({ error, back }) },
  )
}

/** Where to go after a delete: the same page, without the task that no longer exists. */
function withoutTask(path: string) {
  return withSearchParams(path, { task: null, view: null })
}

/** After a change, the modal shows the task again rather than the form. */
function withoutEditing(path: string) {
  return withSearchParams(path, { view: null })
}

/**
 * Nothing to load: this address receives forms. (It must not redirect: after a refused post
 * without JavaScript, React Router runs this loader before rendering the refusal below.)
 */
export function loader() {
  return null
}

/** Shown only without JavaScript, when a change was refused: what went wrong and the way back. */
export default function TaskActionError({ actionData }: Route.ComponentProps) {
  if (!actionData) return <NotFoundScreen backHref="/task" />
  return (
    <ChangeRefusedScreen title="The task was not changed" message={actionData.error} back={actionData.back} />
  )
}
