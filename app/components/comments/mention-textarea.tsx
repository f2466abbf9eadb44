import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react'
import { Avatar } from '~/components/avatar'
import { cn } from '~/utils/cn'
import { activeMentionQuery, insertMention, type Mentionable } from '~/utils/mentions'

type MentionTextareaProps = {
  name: string
  id?: string
  rows?: number
  placeholder?: string
  users: Mentionable[]
  value: string
  onValueChange: (value: string) => void
  /** Cmd+Enter (Mac) or Ctrl+Enter (elsewhere); both keys are accepted everywhere. */
  onSubmitShortcut?: () => void
  disabled?: boolean
  autoFocus?: boolean
  required?: boolean
  maxLength?: number
  'aria-describedby'?: string
}

function usersMatching(users: Mentionable[], query: string) {
  const typed = query.normalize('NFC').toLowerCase().trim()
  return users.filter(
    (user) =>
      user.name.normalize('NFC').toLowerCase().includes(typed) || user.email.toLowerCase().includes(typed),
  )
}

/**
 * A comment box with an @ picker ('Mention someone'): typing `@` lists the people who may be mentioned,
 * filtered by what follows it; arrows move, Enter or Tab picks, Escape closes only the picker.
 * Rendered on the server, and without JavaScript, it is a plain textarea posting `name`.
 *
 * The textarea keeps its native textbox role and points at the open list with
 * aria-controls and aria-activedescendant: ARIA in HTML allows no other role on a <textarea>, so
 * role="combobox" (and the aria-expanded that goes with it) would fail the axe checks.
 */
export function MentionTextarea({
  users,
  value,
  onValueChange,
  onSubmitShortcut,
  maxLength = 5000,
  disabled,
  ...props
}: MentionTextareaProps) {
  const textarea = useRef<HTMLTextAreaElement>(null)
  const pendingCaret = useRef<number | null>(null)
  const listboxId = useId()
  const titleId = useId()
  // Where the caret is (null when text is selected).
  const [caret, setCaret] = useState<number | null>(null)
  // The `@` whose picker is open. Typing opens it; moving the caret into an older mention does not.
  const [openAt, setOpenAt] = useState<number | null>(null)
  // The `@` whose picker was closed (Escape, or a pick): typing on after it leaves it closed.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null)
  const [highlight, setHighlight] = useState({ key: '', index: 0 })

  const typed = caret === null ? null : activeMentionQuery(value, caret)
  const matches = typed ? usersMatching(users, typed.query) : []
  // Once a space is typed and nobody matches, the @ was prose ("meet @ noon"), not a mention.
  const isOpen =
    typed !== null &&
    typed.start === openAt &&
    !disabled &&
    (matches.length > 0 || !typed.query.includes(' '))
  const typedKey = typed ? `${typed.start}:${typed.query}` : ''
  const activeIndex = highlight.key === typedKey ? Math.min(highlight.index, matches.length - 1) : 0
  const activeUser = isOpen ? matches[activeIndex] : undefined
  const optionId = (index: number) => `${listboxId}-option-${index}`

  // A pick changes the value through the parent; the caret goes after the mention once it renders.
  useLayoutEffect(() => {
    if (pendingCaret.current === null) return
    textarea.current?.setSelectionRange(pendingCaret.current, pendingCaret.current)
    pendingCaret.current = null
  })

  /** Follows the caret; what was typed may open the picker, a caret move only closes it. */
  function sync(element: HTMLTextAreaElement, { isTyping }: { isTyping: boolean }) {
    const isCollapsed = element.selectionStart === element.selectionEnd
    const next = isCollapsed ? element.selectionStart : null
    setCaret(next)
    const start = next === null ? null : (activeMentionQuery(element.value, next)?.start ?? null)
    if (isTyping && start !== dismissedAt) {
      setDismissedAt(null)
      setOpenAt(start)
    } else if (start !== openAt) {
      setOpenAt(null)
    }
  }

  function close(start: number) {
    setOpenAt(null)
    setDismissedAt(start)
  }

  function pick(user: Mentionable) {
    if (!typed || caret === null) return
    const next = insertMention(value, typed.start, caret, user.name)
    pendingCaret.current = next.caret
    setCaret(next.caret)
    close(typed.start)
    onValueChange(next.value)
  }

  function moveHighlight(step: number) {
    const count = matches.length
    const index = (activeIndex + step + count) % count
    setHighlight({ key: typedKey, index })
    requestAnimationFrame(() =>
      document.getElementById(optionId(index))?.scrollIntoView({ block: 'nearest' }),
    )
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      if (!onSubmitShortcut) return
      event.preventDefault()
      setOpenAt(null)
      onSubmitShortcut()
      return
    }
    if (!isOpen || !typed) return
    if (event.key === 'Escape') {
      // Only the picker closes: the task's <dialog> must not see this Escape.
      event.preventDefault()
      event.stopPropagation()
      close(typed.start)
      return
    }
    if (!activeUser) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      moveHighlight(event.key === 'ArrowDown' ? 1 : -1)
    } else if (event.key === 'Enter' || (event.key === 'Tab' && !event.shiftKey)) {
      event.preventDefault()
      pick(activeUser)
    }
  }

  return (
    <div className="relative">
      <textarea
        {...props}
        ref={textarea}
        value={value}
        disabled={disabled}
        maxLength={maxLength}
        aria-autocomplete="list"
        aria-controls={activeUser ? listboxId : undefined}
        aria-activedescendant={activeUser ? optionId(activeIndex) : undefined}
        onChange={(event) => {
          onValueChange(event.target.value)
          sync(event.target, { isTyping: true })
        }}
        onSelect={(event) => sync(event.currentTarget, { isTyping: false })}
        onBlur={() => setOpenAt(null)}
        onKeyDown={onKeyDown}
        className={cn(
          'block w-full resize-y rounded-md border bg-background px-3 py-2 text-sm shadow-xs transition-colors',
          'placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
      />
      {isOpen ? (
        <div className="absolute inset-x-0 top-full z-10 mt-1 overflow-hidden rounded-md border bg-background text-foreground shadow-lg sm:right-auto sm:w-80">
          <div id={titleId} className="border-b px-3 py-2 text-xs font-semibold text-muted-foreground">
            Mention someone
          </div>
          {matches.length > 0 ? (
            <div
              id={listboxId}
              role="listbox"
              aria-labelledby={titleId}
              className="max-h-56 overflow-y-auto py-1"
              // A click or a scroll in the list leaves the focus (and the caret) in the textarea.
              onMouseDown={(event) => event.preventDefault()}
            >
              {matches.map((user, index) => (
                // biome-ignore lint/a11y/useFocusableInteractive: the focus stays in the textarea, which points at the option with aria-activedescendant
                <div
                  key={user.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === activeIndex}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm',
                    index === activeIndex && 'bg-accent',
                  )}
                  onMouseDown={(event) => {
                    event.preventDefault()
                    pick(user)
                  }}
                  onMouseMove={() => {
                    if (index !== activeIndex) setHighlight({ key: typedKey, index })
                  }}
                >
                  <span aria-hidden className="flex shrink-0">
                    <Avatar name={user.name} image={user.image} size="sm" />
                  </span>
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate font-medium">{user.name}</span>
                    <span className="truncate text-xs text-muted-foreground">{user.email}</span>
                  </span>
                </div>
              ))}
            </div>
          ) : (
            <p role="status" className="px-3 py-2 text-sm text-muted-foreground">
              No users available to mention
            </p>
          )}
        </div>
      ) : null}
    </div>
  )
}
