import { requireUser } from '~/auth/context.server'
import { ChangeRefusedScreen, NotFoundScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { setActiveWorkspace } from '~/services/sessions.server'
import { WorkspaceIdSchema } from '~/services/tasks/task-schemas'
import { getWorkspace } from '~/services/workspaces/reads.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { safeRedirect } from '~/utils/redirect.server'
import { z } from '~/utils/zod'
import type { Route } from './+types/switch'

/**
 * POST /workspaces/switch: the header's switcher (and the command palette, which submits the same
 * form) makes one of the person's workspaces the one this session works in, then goes back to the
 * page it was on (`redirectTo`, on this site only). A workspace they are not in answers as one that
 * does not exist (404) and changes nothing. Without JavaScript the form posts here; with it a
 * fetcher posts and the redirect reloads the page's data in the new workspace.
 */
const SwitchSchema = z.object({ workspaceId: WorkspaceIdSchema })

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, context, url)
  const formData = await readFormData(request)
  const back = safeRedirect(formData.get('redirectTo'), '/dashboard')
  return handleForm(
    formData,
    SwitchSchema,
    async ({ workspaceId }) => {
      const db = database()
      const workspace = await getWorkspace(db, user, workspaceId)
      await setActiveWorkspace(db, { id: session.id, userId: user.id }, workspace.id)
      return redirectWithToast(back, { type: 'success', title: `Now working in ${workspace.name}` })
    },
    { refusal: (error) => ({ error, back }) },
  )
}

/**
 * Nothing to load: this address receives forms. (It must not redirect: after a refused post
 * without JavaScript, React Router runs this loader before rendering the refusal below.)
 */
export function loader() {
  return null
}

/** Shown only without JavaScript, when the switch was refused: what went wrong and the way back. */
export default function WorkspaceSwitchRefused({ actionData }: Route.ComponentProps) {
  if (!actionData) return <NotFoundScreen backHref="/dashboard" />
  return (
    <ChangeRefusedScreen
      title="The workspace was not switched"
      message={actionData.error}
      back={actionData.back}
    />
  )
}
