import { useRouteLoaderData } from 'react-router'
import { type FieldMeta, SelectField } from '~/components/forms'
import type { loader as rootLoader } from '~/root'

/** The signed-in person's workspaces and the one their session works in, as the root loader read them. */
export function useWorkspaces() {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  return { workspaces: root?.workspaces ?? [], activeWorkspaceId: root?.user?.activeWorkspaceId }
}

/**
 * Where a task is created, or moved to: a select of the person's workspaces when they have more
 * than one; with one, nothing to choose, and `hidden` (the create form's) names the one worked in.
 */
export function WorkspaceField({ meta, hidden }: { meta: FieldMeta; hidden?: string }) {
  const { workspaces } = useWorkspaces()
  if (workspaces.length > 1) {
    return (
      <SelectField
        label="Workspace"
        meta={meta}
        options={workspaces.map((workspace) => ({ value: workspace.id, label: workspace.name }))}
      />
    )
  }
  return hidden ? <input type="hidden" name={meta.name} value={hidden} /> : null
}
