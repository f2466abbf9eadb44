import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { cn } from '~/utils/cn'
import { matchingItems, type PaletteItem, taskItems, workspaceItems } from './palette-items'

const LISTBOX_ID = 'command-palette-options'
const optionId = (item: PaletteItem) => `command-palette-${item.id}`

/** Typing pauses this long before the tasks are searched. */
const SEARCH_DELAY_MS = 200
/** Shorter queries search no tasks: one letter matches nearly everything. */
const SEARCH_MIN_LENGTH = 2

/**
 * The command palette (Ctrl/⌘-K): a modal dialog holding a combobox whose listbox offers pages,
 * the tasks a search finds, and actions. The focus stays in the input, which points at the
 * active option (aria-activedescendant); arrows move it, Enter chooses it, Escape closes. The
 * choice is handed to `onClose` after the dialog has closed, so the focus can go back where it was.
 */
export default function CommandPalette({
  isSignedIn,
  workspaces = [],
  activeWorkspaceId,
  onClose,
}: {
  isSignedIn: boolean
  /** The person's workspaces, each one to switch to but the one worked in. */
  workspaces?: readonly { id: string; name: string }[]
  activeWorkspaceId?: string
  onClose: (chosen: PaletteItem | null) => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const chosen = useRef<PaletteItem | null>(null)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const items = [
    ...matchingItems(isSignedIn, query),
    ...workspaceItems(workspaces, activeWorkspaceId, query),
    ...useTaskSearch(isSignedIn, query),
  ]
  const activeIndex = Math.min(active, items.length - 1)
  const activeItem = items[activeIndex]

  useEffect(() => {
    dialog.current?.showModal()
  }, [])

  const choose = (item: PaletteItem) => {
    chosen.current = item
    dialog.current?.close()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: activeIndex + 1, ArrowUp: activeIndex - 1 }
    if (event.key in moves && items.length > 0) {
      event.preventDefault()
      setActive(((moves[event.key] ?? 0) + items.length) % items.length)
    } else if (event.key === 'Enter' && activeItem) {
      event.preventDefault()
      choose(activeItem)
    }
  }

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; the keyboard closes the dialog with Escape
    <dialog
      ref={dialog}
      data-keyboard-dialog
      aria-labelledby="command-palette-title"
      onClose={() => onClose(chosen.current)}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close()
      }}
      className="fixed inset-x-0 top-[12dvh] z-50 mx-auto mt-0 w-[min(36rem,calc(100vw-2rem))] overflow-hidden rounded-lg border bg-background p-0 text-foreground shadow-xl backdrop:bg-black/50"
    >
      <h2 id="command-palette-title" className="sr-only">
        Command palette
      </h2>
      <input
        role="combobox"
        aria-label="Go to a page, find a task, or run an action"
        aria-expanded={items.length > 0}
        aria-controls={LISTBOX_ID}
        aria-autocomplete="list"
        aria-activedescendant={activeItem ? optionId(activeItem) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type a page, a task or an action…"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          setActive(0)
        }}
        onKeyDown={onKeyDown}
        className="block w-full border-b bg-background px-4 py-3 text-base outline-none placeholder:text-muted-foreground"
      />
      {items.length > 0 ? (
        <div id={LISTBOX_ID} role="listbox" aria-label="Commands" className="max-h-80 overflow-y-auto py-1">
          {items.map((item, index) => (
            // biome-ignore lint/a11y/useFocusableInteractive: the focus stays in the input, which points at the option with aria-activedescendant
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses with Enter in the input
            <div
              key={item.id}
              id={optionId(item)}
              role="option"
              aria-selected={index === activeIndex}
              onClick={() => choose(item)}
              onMouseMove={() => {
                if (index !== activeIndex) setActive(index)
              }}
              className={cn(
                'flex cursor-pointer items-center justify-between gap-4 px-4 py-2 text-sm',
                index === activeIndex && 'bg-accent text-accent-foreground',
              )}
            >
              <span className="truncate">{item.label}</span>
              <span className="shrink-0 text-xs text-muted-foreground">{item.kind}</span>
            </div>
          ))}
        </div>
      ) : (
        <p role="status" className="px-4 py-3 text-sm text-muted-foreground">
          Nothing matches. Try another word.
        </p>
      )}
    </dialog>
  )
}

/**
 * The tasks the /search page finds for the query (signed-in people only), as palette items,
 * loaded a moment after the typing pauses.
 */
function useTaskSearch(isSignedIn: boolean, query: string) {
  const fetcher = useFetcher()
  const { load } = fetcher
  const q = query.trim()
  const isSearched = isSignedIn && q.length >= SEARCH_MIN_LENGTH
  useEffect(() => {
    if (!isSearched) return
    const timer = window.setTimeout(() => void load(`/search?q=${encodeURIComponent(q)}`), SEARCH_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [isSearched, q, load])
  return isSearched ? taskItems(fetcher.data) : []
}
