/**
 * What the command palette offers, as data: the pages a person may open (signed in or not), the
 * tasks a search found, and the common actions. The palette (command-palette.tsx) filters and
 * runs them; keyboard-shortcuts.tsx carries the actions out.
 */

type PaletteAction = 'new-task' | 'toggle-theme' | 'sign-out'

export type PaletteItem = {
  id: string
  label: string
  /** What kind of thing it is, shown beside the label. */
  kind: 'Page' | 'Task' | 'Action' | 'Workspace'
  run:
    | { kind: 'go'; to: string }
    | { kind: 'action'; action: PaletteAction }
    | { kind: 'switch-workspace'; workspaceId: string }
}

const page = (to: string, label: string): PaletteItem => ({
  id: `page${to.replaceAll('/', '-')}`,
  label,
  kind: 'Page',
  run: { kind: 'go', to },
})

const action = (name: PaletteAction, label: string): PaletteItem => ({
  id: `action-${name}`,
  label,
  kind: 'Action',
  run: { kind: 'action', action: name },
})

const SIGNED_IN_ITEMS: PaletteItem[] = [
  page('/dashboard', 'Dashboard'),
  page('/task', 'Tasks'),
  page('/notifications', 'Notifications'),
  page('/chat', 'AI Chat'),
  page('/saved-chats', 'Saved chats'),
  page('/docs', 'Docs'),
  page('/blog', 'Blog'),
  page('/pricing', 'Pricing'),
  page('/settings', 'Settings'),
  action('new-task', 'New task'),
  action('toggle-theme', 'Toggle light or dark theme'),
  action('sign-out', 'Sign out'),
]

const SIGNED_OUT_ITEMS: PaletteItem[] = [
  page('/', 'Home'),
  page('/docs', 'Docs'),
  page('/blog', 'Blog'),
  page('/pricing', 'Pricing'),
  page('/showcase', 'Showcase'),
  page('/support', 'Support'),
  page('/login', 'Sign in'),
  action('toggle-theme', 'Toggle light or dark theme'),
]

/** The pages and actions this person may use, those matching the query (every word, any case). */
export function matchingItems(isSignedIn: boolean, query: string) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const items = isSignedIn ? SIGNED_IN_ITEMS : SIGNED_OUT_ITEMS
  return items.filter((item) => {
    const text = `${item.label} ${item.kind}`.toLowerCase()
    return words.every((word) => text.includes(word))
  })
}

/**
 * "Switch to …" for each of the person's workspaces but the one they work in, those matching the
 * query as the pages and actions are matched.
 */
export function workspaceItems(
  workspaces: readonly { id: string; name: string }[],
  activeWorkspaceId: string | undefined,
  query: string,
): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  return workspaces.flatMap((workspace) => {
    if (workspace.id === activeWorkspaceId) return []
    const label = `Switch to ${workspace.name}`
    const text = `${label} workspace`.toLowerCase()
    if (!words.every((word) => text.includes(word))) return []
    return [
      {
        id: `workspace-${workspace.id}`,
        label,
        kind: 'Workspace' as const,
        run: { kind: 'switch-workspace' as const, workspaceId: workspace.id },
      },
    ]
  })
}

/**
 * The tasks in an answer of the /search loader (`{ tasks: { id, text }[] }`), as palette items
 * that open them. Anything else (no answer yet, a refusal, another shape) finds no tasks.
 */
export function taskItems(answer: unknown): PaletteItem[] {
  const tasks = (answer as { tasks?: unknown } | null | undefined)?.tasks
  if (!Array.isArray(tasks)) return []
  return tasks.flatMap((task: { id?: unknown; text?: unknown }) =>
    typeof task?.id === 'string' && typeof task.text === 'string'
      ? [
          {
            id: `task-${task.id}`,
            label: task.text,
            kind: 'Task' as const,
            run: { kind: 'go' as const, to: `/task?task=${encodeURIComponent(task.id)}` },
          },
        ]
      : [],
  )
}
