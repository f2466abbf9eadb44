import { Link, useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'

/** One of the signed-in person's workspaces, as the header and the forms offer it. */
export type WorkspaceChoice = { id: string; name: string; isPersonal: boolean }

const MENU_ID = 'workspace-menu'
/** The form the menu's items, the plain form's button and the command palette all submit (app/components/keyboard/). */
const FORM_ID = 'workspace-switch'
const SELECT_ID = `${FORM_ID}-select`

/**
 * The header's workspace switcher: a button naming the workspace this session works in, opening a
 * native popover (like the account menu) that holds one plain form, with or without JavaScript: a
 * <select> of the person's workspaces and a "Switch workspace" button, posting `workspaceId` to
 * /workspaces/switch, which comes back to this page working in the chosen workspace. The keyboard
 * reaches it as any form (the select's own arrow keys), and the command palette submits it too.
 */
export function WorkspaceSwitcher({
  workspaces,
  activeWorkspaceId,
}: {
  workspaces: WorkspaceChoice[]
  activeWorkspaceId: string
}) {
  const fetcher = useFetcher<{ error?: string }>()
  const active = workspaces.find((workspace) => workspace.id === activeWorkspaceId) ?? workspaces[0]
  if (!active) return null
  return (
    <>
      <button
        type="button"
        popoverTarget={MENU_ID}
        className="inline-flex h-9 min-w-9 max-w-40 items-center justify-center gap-1 rounded-md border px-2 text-sm font-medium hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        // Starts with what the button shows, so a voice-control user can say it (WCAG 2.5.3).
        aria-label={`${active.name}: switch workspace`}
      >
        {/* A phone's header has room for the first letter only; the menu names them all. */}
        <span aria-hidden className="sm:hidden">
          {Array.from(active.name)[0]?.toUpperCase()}
        </span>
        <span className="hidden truncate sm:inline">{active.name}</span>
        <span aria-hidden className="hidden text-muted-foreground sm:inline">
          ▾
        </span>
      </button>
      <div
        id={MENU_ID}
        popover="auto"
        className="fixed inset-auto top-16 right-4 m-0 w-64 rounded-lg border bg-background p-2 text-foreground shadow-lg"
      >
        <p className="px-3 py-1 text-xs font-medium text-muted-foreground">Workspaces</p>
        <ActionForm
          id={FORM_ID}
          fetcher={fetcher}
          action="/workspaces/switch"
          redirectTo
          onSubmit={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
        >
          {workspaces.length > 1 ? (
            <div className="flex flex-col gap-2 px-3 py-2">
              <label htmlFor={SELECT_ID} className="text-sm">
                Work in
              </label>
              <Select id={SELECT_ID} name="workspaceId" defaultValue={active.id}>
                {workspaces.map((workspace) => (
                  <option key={workspace.id} value={workspace.id}>
                    {workspace.name}
                  </option>
                ))}
              </Select>
              <Button type="submit" size="sm" variant="outline">
                Switch workspace
              </Button>
            </div>
          ) : null}
        </ActionForm>
        <Link
          to="/workspaces"
          className="block rounded-md px-3 py-2 text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none"
          onClick={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
        >
          All workspaces
        </Link>
        {fetcher.data?.error ? (
          <p role="alert" className="px-3 py-2 text-sm text-destructive">
            {fetcher.data.error}
          </p>
        ) : null}
      </div>
    </>
  )
}
