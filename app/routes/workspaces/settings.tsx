import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { type SettingsActionData, SettingsSection } from '~/components/settings/section'
import { Badge } from '~/components/ui/badge'
import { StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { managesWorkspace } from '~/domain/workspaces'
import { handleForm } from '~/http/form-action.server'
import { NotFound } from '~/services/errors'
import { WORKSPACE_NOT_FOUND } from '~/services/workspaces/membership.server'
import { getWorkspaceBySlug, listMembers, type MemberView } from '~/services/workspaces/reads.server'
import {
  CreateWorkspaceSchema,
  DeleteWorkspaceSchema,
  MANAGERS_ONLY,
  OWNER_CANNOT_LEAVE,
  TransferWorkspaceSchema,
} from '~/services/workspaces/workspace-schemas'
import {
  deleteWorkspace,
  leaveWorkspace,
  transferOwnership,
  updateWorkspace,
} from '~/services/workspaces/workspaces.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import { ROLE_NAMES } from './+parts/role-names'
import { WorkspaceFields } from './+parts/workspace-fields'
import type { Route } from './+types/settings'

/**
 * /workspaces/<slug>/settings: renaming it (its owner and admins), leaving it (anyone but its
 * owner), handing it to an admin and deleting it (its owner). A personal workspace is only
 * renamed. A workspace the person is not in is a 404, as one that does not exist
 * (docs/product-rules.md §1).
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.workspace.name ?? 'Workspace'} settings | Threadwork` },
]

export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  try {
    const workspace = await getWorkspaceBySlug(db, user, params.slug)
    const isOwnerOfTeam = workspace.role === 'owner' && !workspace.isPersonal
    const admins = isOwnerOfTeam
      ? (await listMembers(db, user, workspace.id)).filter((member) => member.role === 'admin')
      : []
    return { workspace, admins }
  } catch (error) {
    if (error instanceof NotFound)
      throw data({ message: WORKSPACE_NOT_FOUND, backHref: '/workspaces' }, { status: 404 })
    throw error
  }
}

/** The page's forms, each named by its hidden `intent` field; renaming asks what creating does. */
const SettingsIntent = z.discriminatedUnion('intent', [
  CreateWorkspaceSchema.safeExtend({ intent: z.literal('rename') }),
  z.object({ intent: z.literal('leave') }),
  TransferWorkspaceSchema.safeExtend({ intent: z.literal('transfer') }),
  DeleteWorkspaceSchema.safeExtend({ intent: z.literal('delete') }),
])

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  // Inside each change, so a workspace the person is not in is refused as the form's 404.
  const current = () => getWorkspaceBySlug(db, user, params.slug)
  return handleForm(await readFormData(request), SettingsIntent, {
    rename: async ({ name, slug }) => {
      const workspace = await updateWorkspace(db, user, (await current()).id, { name, slug })
      return redirectWithToast(`/workspaces/${workspace.slug}/settings`, {
        type: 'success',
        title: 'Workspace renamed',
      })
    },
    leave: async () => {
      const { workspace } = await leaveWorkspace(db, user, (await current()).id)
      return redirectWithToast('/workspaces', { type: 'success', title: `You left ${workspace.name}` })
    },
    transfer: async ({ toUserId }) => {
      const workspace = await transferOwnership(db, user, (await current()).id, toUserId)
      return redirectWithToast(`/workspaces/${workspace.slug}/settings`, {
        type: 'success',
        title: 'Ownership transferred',
        description: `You are now an admin of ${workspace.name}.`,
      })
    },
    delete: async ({ confirmName }) => {
      const { workspace } = await deleteWorkspace(db, user, (await current()).id, confirmName)
      return redirectWithToast('/workspaces', { type: 'success', title: `${workspace.name} was deleted` })
    },
  })
}

export default function WorkspaceSettings({ loaderData, actionData: answered }: Route.ComponentProps) {
  const { workspace, admins } = loaderData
  const actionData = useKeptActionData(answered)
  const base = `/workspaces/${workspace.slug}`
  const isOwner = workspace.role === 'owner'
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div className="flex flex-col gap-2">
        <nav aria-label="Workspace" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to="/workspaces" className="text-muted-foreground underline-offset-4 hover:underline">
            All workspaces
          </Link>
          <Link to={`${base}/members`} className="text-muted-foreground underline-offset-4 hover:underline">
            Members
          </Link>
        </nav>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-all text-2xl font-semibold">{workspace.name}</h1>
          {workspace.isPersonal ? <Badge tone="neutral">Personal</Badge> : null}
          <Badge tone={workspace.role === 'member' ? 'outline' : 'primary-soft'}>
            {ROLE_NAMES[workspace.role]}
          </Badge>
        </div>
        <p className="break-all text-sm text-muted-foreground">{base}</p>
      </div>
      <RenameSection workspace={workspace} actionData={actionData} />
      {workspace.isPersonal ? (
        <p className="text-sm text-muted-foreground">
          A personal workspace cannot be shared, left or deleted. Create a team workspace on{' '}
          <Link to="/workspaces" className="underline underline-offset-4">
            Workspaces
          </Link>{' '}
          to work with others.
        </p>
      ) : (
        <>
          {isOwner ? null : <LeaveSection name={workspace.name} />}
          {isOwner ? (
            <TransferSection admins={admins} membersHref={`${base}/members`} actionData={actionData} />
          ) : null}
          {isOwner ? <DeleteSection name={workspace.name} actionData={actionData} /> : null}
          {isOwner ? <p className="text-sm text-muted-foreground">{OWNER_CANNOT_LEAVE}</p> : null}
        </>
      )}
    </main>
  )
}

type Workspace = Route.ComponentProps['loaderData']['workspace']

function RenameSection({ workspace, actionData }: { workspace: Workspace; actionData: SettingsActionData }) {
  const isPending = useIsPending({ intent: 'rename' })
  const [form, fields] = useForm({
    id: 'rename',
    lastResult: resultFor(actionData, 'rename'),
    constraint: getZodConstraint(CreateWorkspaceSchema),
    defaultValue: { name: workspace.name, slug: workspace.slug },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateWorkspaceSchema }),
  })
  return (
    <SettingsSection
      title="Name and address"
      description="What everyone in it reads, and where its pages are."
    >
      {managesWorkspace(workspace.role) ? (
        <ActionForm intent="rename" className="flex flex-col gap-4" {...getFormProps(form)}>
          <WorkspaceFields fields={fields} formErrors={form.errors} errorId={form.errorId} />
          <StatusButton isPending={isPending} pendingText="Saving…" className="self-start">
            Save
          </StatusButton>
        </ActionForm>
      ) : (
        <p className="text-sm text-muted-foreground">{MANAGERS_ONLY}</p>
      )}
    </SettingsSection>
  )
}

function LeaveSection({ name }: { name: string }) {
  const isPending = useIsPending({ intent: 'leave' })
  return (
    <SettingsSection
      title="Leave workspace"
      description={`You lose access to ${name}'s tasks, and the ones assigned to you there are unassigned unless they are shared with you.`}
    >
      <ActionForm intent="leave">
        <StatusButton isPending={isPending} pendingText="Leaving…" variant="destructive">
          Leave workspace
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

function TransferSection({
  admins,
  membersHref,
  actionData,
}: {
  admins: MemberView[]
  membersHref: string
  actionData: SettingsActionData
}) {
  const isPending = useIsPending({ intent: 'transfer' })
  const [form, fields] = useForm({
    id: 'transfer',
    lastResult: resultFor(actionData, 'transfer'),
    constraint: getZodConstraint(TransferWorkspaceSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TransferWorkspaceSchema }),
  })
  return (
    <SettingsSection
      title="Transfer ownership"
      description="Hand the workspace to one of its admins. You stay in it as an admin."
    >
      {admins.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          There is no admin to hand it to yet. Make someone an admin on the{' '}
          <Link to={membersHref} className="underline underline-offset-4">
            members page
          </Link>{' '}
          first.
        </p>
      ) : (
        <ActionForm intent="transfer" className="flex flex-col gap-4" {...getFormProps(form)}>
          <ErrorList id={form.errorId} errors={form.errors} />
          <SelectField
            label="New owner"
            meta={fields.toUserId}
            emptyOption="Choose an admin"
            options={admins.map((admin) => ({
              value: admin.userId,
              label: `${admin.name} (${admin.email})`,
            }))}
          />
          <StatusButton isPending={isPending} pendingText="Transferring…" className="self-start">
            Transfer ownership
          </StatusButton>
        </ActionForm>
      )}
    </SettingsSection>
  )
}

function DeleteSection({ name, actionData }: { name: string; actionData: SettingsActionData }) {
  const isPending = useIsPending({ intent: 'delete' })
  const [form, fields] = useForm({
    id: 'delete-workspace',
    lastResult: resultFor(actionData, 'delete'),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteWorkspaceSchema }),
  })
  return (
    <SettingsSection
      title="Delete workspace"
      description="Deletes it for everyone in it, with its tasks and their comments. This cannot be undone."
    >
      <ActionForm intent="delete" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field label={`Type "${name}" to confirm`} meta={fields.confirmName} autoComplete="off" />
        <StatusButton
          isPending={isPending}
          pendingText="Deleting…"
          variant="destructive"
          className="self-start"
        >
          Delete workspace
        </StatusButton>
      </ActionForm>
    </SettingsSection>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
