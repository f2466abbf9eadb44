import { Fragment, useEffect, useRef } from 'react'
import { Button } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'

/** What the dialog lists: each shortcut's keys (pressed one after another) and what it does. */
const SHORTCUT_LIST: { keys: string[]; does: string }[] = [
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Ctrl+K'], does: 'Open the command palette (⌘+K on a Mac)' },
  { keys: ['c'], does: 'Start a new task' },
  { keys: ['/'], does: 'Search' },
  { keys: ['g', 'd'], does: 'Go to the dashboard' },
  { keys: ['g', 't'], does: 'Go to the tasks' },
  { keys: ['g', 'n'], does: 'Go to the notifications' },
  { keys: ['g', 'c'], does: 'Go to the AI chat' },
  { keys: ['j'], does: 'Next task in the list' },
  { keys: ['k'], does: 'Previous task in the list' },
  { keys: ['Enter'], does: 'Open the focused task' },
  { keys: ['Esc'], does: 'Close the task or this dialog' },
]

/** The list of shortcuts, a modal dialog that gives the focus back where it was when it closes. */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; the keyboard closes the dialog with Escape
    <dialog
      ref={dialog}
      data-keyboard-dialog
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close()
      }}
      className="fixed inset-0 z-50 m-auto max-h-[90dvh] w-[min(32rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border bg-background p-0 text-foreground shadow-xl backdrop:bg-black/50"
    >
      <div className="flex items-center justify-between gap-4 border-b p-5">
        <h2 id="shortcuts-title" className="text-lg font-semibold">
          Keyboard shortcuts
        </h2>
        <form method="dialog">
          <Button type="submit" variant="ghost" size="icon-sm" aria-label="Close">
            <Icon name="close" className="size-4" />
          </Button>
        </form>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 p-5 text-sm">
        {SHORTCUT_LIST.map(({ keys, does }) => (
          <Fragment key={does}>
            <dt className="flex items-center gap-1">
              {keys.map((key) => (
                <kbd key={key} className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {key}
                </kbd>
              ))}
            </dt>
            <dd>{does}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="border-t px-5 py-3 text-xs text-muted-foreground">
        Shortcuts wait while you type in a field and leave keys with Ctrl, Alt or ⌘ to the browser.
      </p>
    </dialog>
  )
}
