import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { SettingsSection } from '~/components/settings/section'
import { Badge } from '~/components/ui/badge'
import { buttonClasses, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { WORKSPACE_LIMITS } from '~/domain/workspaces'
import { handleForm } from '~/http/form-action.server'
import { listWorkspaces, type WorkspaceView } from '~/services/workspaces/reads.server'
import { CreateWorkspaceSchema } from '~/services/workspaces/workspace-schemas'
import { createWorkspace } from '~/services/workspaces/workspaces.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { ROLE_NAMES } from './+parts/role-names'
import { WorkspaceFields } from './+parts/workspace-fields'
import type { Route } from './+types/index'

/**
 * /workspaces: every workspace the person is in — their personal one first — with their role and
 * how many are in it, the way to each one's members and settings, and the form that creates a
 * team workspace (docs/product-rules.md §1).
 */

export const meta: Route.MetaFunction = () => [{ title: 'Workspaces | Threadwork' }]

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  return { workspaces: await listWorkspaces(database(), user) }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  return handleForm(await readFormData(request), CreateWorkspaceSchema, async (fields) => {
    const workspace = await createWorkspace(database(), user, fields)
    return redirectWithToast('/workspaces', {
      type: 'success',
      title: `${workspace.name} created`,
      description: 'Invite people from its members page.',
    })
  })
}

export default function Workspaces({ loaderData, actionData: answered }: Route.ComponentProps) {
  const { workspaces } = loaderData
  const hasTeams = workspaces.some((workspace) => !workspace.isPersonal)
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div>
        <h1 className="text-2xl font-semibold">Workspaces</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Every task belongs to one workspace, and everyone in it sees and works on its tasks.
        </p>
      </div>
      <section aria-labelledby="your-workspaces-heading" className="flex flex-col gap-3">
        <h2 id="your-workspaces-heading" className="text-lg font-semibold">
          Your workspaces
        </h2>
        <ul className="flex flex-col gap-3">
          {workspaces.map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} />
          ))}
        </ul>
        {hasTeams ? null : (
          <p className="text-sm text-muted-foreground">
            You are not in a team yet. Create one below, or ask a team’s owner or an admin to invite you.
          </p>
        )}
      </section>
      <CreateSection actionData={useKeptActionData(answered)} />
    </main>
  )
}

function WorkspaceRow({ workspace }: { workspace: WorkspaceView }) {
  const base = `/workspaces/${workspace.slug}`
  const people = `${workspace.memberCount} ${workspace.memberCount === 1 ? 'member' : 'members'}`
  return (
    <li className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-medium">{workspace.name}</span>
          {workspace.isPersonal ? <Badge tone="neutral">Personal</Badge> : null}
          <Badge tone={workspace.role === 'member' ? 'outline' : 'primary-soft'}>
            {ROLE_NAMES[workspace.role]}
          </Badge>
        </div>
        <p className="truncate text-sm text-muted-foreground">
          {people} · {base}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link to={`${base}/members`} className={buttonClasses('outline', 'sm')}>
          Members<span className="sr-only"> of {workspace.name}</span>
        </Link>
        <Link to={`${base}/settings`} className={buttonClasses('outline', 'sm')}>
          Settings<span className="sr-only"> of {workspace.name}</span>
        </Link>
      </div>
    </li>
  )
}

function CreateSection({ actionData }: { actionData: Route.ComponentProps['actionData'] }) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'create-workspace',
    lastResult: actionData?.result,
    constraint: getZodConstraint(CreateWorkspaceSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateWorkspaceSchema }),
  })
  return (
    <SettingsSection
      title="Create a workspace"
      description={`A team workspace, which you own; you may own up to ${WORKSPACE_LIMITS.ownedTeams}.`}
    >
      <ActionForm className="flex flex-col gap-4" {...getFormProps(form)}>
        <WorkspaceFields fields={fields} formErrors={form.errors} errorId={form.errorId} />
        <StatusButton isPending={isPending} pendingText="Creating…" className="self-start">
          Create workspace
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
