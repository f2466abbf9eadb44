import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { PaletteItem } from './palette-items'
import { isTypingIn, nextRowIndex, type ShortcutCommand, shortcutFor } from './shortcuts'

const ShortcutsDialog = lazy(() => import('./shortcuts-dialog'))
const CommandPalette = lazy(() => import('./command-palette'))

/** The create form's title on /task (app/routes/tasks/index.tsx names its fields `create-task-…`). */
const NEW_TASK_TITLE_ID = 'create-task-text'
/**
 * The search fields `/` focuses, the first one shown: the search page's own, the header's (wide
 * screens only) and the drawer's (when open). Where none is shown, `/` opens the search page.
 */
const SEARCH_FIELD_IDS = ['search-query', 'site-search', 'mobile-site-search']
/** The forms `toggle-theme` and `sign-out` submit: the header's own, so each stays one way. */
const THEME_FORM_ID = 'theme-switch'
const SIGN_OUT_FORM_ID = 'sign-out'
/** The header's workspace switcher (components/workspace-switcher.tsx): its form, whose select names the workspace. */
const WORKSPACE_FORM_ID = 'workspace-switch'
/** The links of the task list's rows, which `j` and `k` move the focus between. */
const ROW_LINKS = '[data-keyboard-row]'
/** The attribute our own dialogs carry (shortcuts-dialog.tsx, command-palette.tsx). */
const OUR_DIALOG = 'data-keyboard-dialog'

/** Which dialog is open, and since when: each opening mounts its dialog anew, which shows it. */
type Opened = { dialog: 'help' | 'palette'; at: number } | null

/**
 * Listens for the shortcuts (shortcuts.ts decides which press is one) and carries them out. The
 * dialogs return the focus to where it was when they close, and a command chosen in the palette
 * runs after it has closed, so that focus can move outside it.
 */
export default function KeyboardShortcuts({
  isSignedIn,
  workspaces,
  activeWorkspaceId,
}: {
  isSignedIn: boolean
  workspaces?: readonly { id: string; name: string }[]
  activeWorkspaceId?: string
}) {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [opened, setOpened] = useState<Opened>(null)
  /** When the dialog open now was asked for (its key), or null: a close of an older one is late. */
  const opening = useRef<number | null>(null)
  const opener = useRef<HTMLElement | null>(null)
  const pendingSince = useRef<number | null>(null)
  const focusTitleOnArrival = useRef(false)

  const startNewTask = () => {
    if (window.location.pathname === '/task') document.getElementById(NEW_TASK_TITLE_ID)?.focus()
    else {
      focusTitleOnArrival.current = true
      void navigate('/task')
    }
  }

  const run = (command: ShortcutCommand) => {
    switch (command.kind) {
      case 'help':
      case 'palette':
        opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
        opening.current = performance.now()
        setOpened({ dialog: command.kind, at: opening.current })
        return
      case 'new-task':
        return startNewTask()
      case 'focus-search': {
        const search = SEARCH_FIELD_IDS.map((id) => document.getElementById(id)).find(
          (field) => field !== null && field.getClientRects().length > 0,
        )
        if (search) search.focus()
        else void navigate('/search')
        return
      }
      case 'go':
        return void navigate(command.to)
      case 'move-row': {
        const rows = [...document.querySelectorAll<HTMLElement>(ROW_LINKS)]
        const current = rows.indexOf(document.activeElement as HTMLElement)
        rows[nextRowIndex(current, command.step, rows.length)]?.focus()
        return
      }
    }
  }
  const latestRun = useRef(run)
  latestRun.current = run

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const answer = shortcutFor(event, {
        isTyping: isTypingIn(event.target instanceof HTMLElement ? event.target : null),
        // Ours count from the key that opens them: until its chunk has come, the keys typed for
        // the palette are not shortcuts either.
        isDialogOpen:
          (opening.current !== null && document.querySelector(`dialog[${OUR_DIALOG}]`) === null) ||
          document.querySelector('dialog[open], [popover="auto"]:popover-open') !== null,
        pendingSince: pendingSince.current,
        now: event.timeStamp,
      })
      pendingSince.current = answer.pendingSince
      if (!answer.command) return
      event.preventDefault()
      latestRun.current(answer.command)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  // `c` from another page: the title takes the focus once /task is on screen (a visitor is sent
  // to sign in instead, where there is no such field).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes, which is what it waits for
  useEffect(() => {
    if (!focusTitleOnArrival.current) return
    focusTitleOnArrival.current = false
    document.getElementById(NEW_TASK_TITLE_ID)?.focus()
  }, [pathname])

  const close = (at: number, chosen?: PaletteItem | null) => {
    // The close event comes a moment after the dialog has closed: a key pressed meanwhile may
    // already have opened the next one, which this must leave alone.
    if (opening.current !== at) return
    opening.current = null
    setOpened(null)
    opener.current?.focus()
    opener.current = null
    if (!chosen) return
    if (chosen.run.kind === 'go') void navigate(chosen.run.to)
    else if (chosen.run.kind === 'switch-workspace') {
      // The switcher's own form, its choice set to that workspace: one way to switch.
      const form = document.querySelector<HTMLFormElement>(`form#${WORKSPACE_FORM_ID}`)
      const choice = form?.elements.namedItem('workspaceId')
      if (form && choice instanceof HTMLSelectElement) {
        choice.value = chosen.run.workspaceId
        form.requestSubmit()
      }
    } else if (chosen.run.action === 'new-task') startNewTask()
    else {
      const form = chosen.run.action === 'toggle-theme' ? THEME_FORM_ID : SIGN_OUT_FORM_ID
      document.querySelector<HTMLFormElement>(`form#${form}`)?.requestSubmit()
    }
  }

  if (!opened) return null
  return (
    <Suspense fallback={null}>
      {opened.dialog === 'help' ? (
        <ShortcutsDialog key={opened.at} onClose={() => close(opened.at)} />
      ) : (
        <CommandPalette
          key={opened.at}
          isSignedIn={isSignedIn}
          workspaces={workspaces}
          activeWorkspaceId={activeWorkspaceId}
          onClose={(chosen) => close(opened.at, chosen)}
        />
      )}
    </Suspense>
  )
}
