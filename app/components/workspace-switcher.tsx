import type { KeyboardEvent, ToggleEvent } from 'react'
import { Link, useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { cn } from '~/utils/cn'
import { useHydrated } from '~/utils/use-hydrated'

/** One of the signed-in person's workspaces, as the header and the forms offer it. */
export type WorkspaceChoice = { id: string; name: string; isPersonal: boolean }

const MENU_ID = 'workspace-menu'
/** The form the menu's items, the plain form's button and the command palette all submit (app/components/keyboard/). */
const FORM_ID = 'workspace-switch'
const ITEMS = '[role="menuitemradio"], [role="menuitem"]'

/**
 * The header's workspace switcher: a button naming the workspace this session works in, opening a
 * native popover (like the account menu). Inside, without JavaScript, a plain form: a <select> of
 * the person's workspaces and a "Switch workspace" button; with it, the same form as a menu whose
 * items are its submit buttons, moved through with the arrow keys. Both post `workspaceId` to
 * /workspaces/switch, which comes back to this page working in the chosen workspace.
 */
export function WorkspaceSwitcher({
  workspaces,
  activeWorkspaceId,
}: {
  workspaces: WorkspaceChoice[]
  activeWorkspaceId: string
}) {
  const fetcher = useFetcher<{ error?: string }>()
  const isHydrated = useHydrated()
  const active = workspaces.find((workspace) => workspace.id === activeWorkspaceId) ?? workspaces[0]
  if (!active) return null
  const allWorkspaces = (
    <Link
      to="/workspaces"
      role={isHydrated ? 'menuitem' : undefined}
      className="block rounded-md px-3 py-2 text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none"
      onClick={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
    >
      All workspaces
    </Link>
  )
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
        onToggle={focusCheckedItem}
        className="fixed inset-auto top-16 right-4 m-0 w-64 rounded-lg border bg-background p-2 text-foreground shadow-lg"
      >
        <p id={`${MENU_ID}-title`} className="px-3 py-1 text-xs font-medium text-muted-foreground">
          Workspaces
        </p>
        <ActionForm
          id={FORM_ID}
          fetcher={fetcher}
          action="/workspaces/switch"
          redirectTo
          onSubmit={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
        >
          {isHydrated ? (
            <div role="menu" aria-labelledby={`${MENU_ID}-title`} onKeyDown={moveBetweenItems}>
              {workspaces.map((workspace) => (
                <button
                  key={workspace.id}
                  id={`${FORM_ID}-${workspace.id}`}
                  type="submit"
                  role="menuitemradio"
                  aria-checked={workspace.id === active.id}
                  name="workspaceId"
                  value={workspace.id}
                  tabIndex={workspace.id === active.id ? 0 : -1}
                  className={cn(
                    'flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none',
                    workspace.id === active.id && 'font-medium',
                  )}
                >
                  <span className="truncate">{workspace.name}</span>
                  {workspace.id === active.id ? (
                    <span aria-hidden className="text-xs text-muted-foreground">
                      ✓
                    </span>
                  ) : null}
                </button>
              ))}
              <div className="my-1 border-t" />
              {allWorkspaces}
            </div>
          ) : (
            <>
              {workspaces.length > 1 ? (
                <div className="flex flex-col gap-2 px-3 py-2">
                  <label htmlFor={`${FORM_ID}-select`} className="text-sm">
                    Work in
                  </label>
                  <Select id={`${FORM_ID}-select`} name="workspaceId" defaultValue={active.id}>
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
              {allWorkspaces}
            </>
          )}
        </ActionForm>
        {fetcher.data?.error ? (
          <p role="alert" className="px-3 py-2 text-sm text-destructive">
            {fetcher.data.error}
          </p>
        ) : null}
      </div>
    </>
  )
}

/** Opening the menu puts the focus on the workspace worked in, as a menu of choices does. */
function focusCheckedItem(event: ToggleEvent<HTMLDivElement>) {
  if (event.newState !== 'open') return
  const menu = event.currentTarget
  ;(
    menu.querySelector<HTMLElement>('[aria-checked="true"]') ?? menu.querySelector<HTMLElement>(ITEMS)
  )?.focus()
}

/** Up and down (wrapping), Home and End move between the items; Escape closes the popover itself. */
function moveBetweenItems(event: KeyboardEvent<HTMLDivElement>) {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(ITEMS)]
  const at = items.indexOf(document.activeElement as HTMLElement)
  const to: Record<string, number> = {
    ArrowDown: (at + 1) % items.length,
    ArrowUp: (at - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  }
  const next = items[to[event.key] ?? -1]
  if (!next) return
  event.preventDefault()
  next.focus()
}
