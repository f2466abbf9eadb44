/**
 * Which key presses are shortcuts, as pure functions the listener (keyboard-shortcuts.tsx) and
 * the tests share. A shortcut is a single printable key, or `g` then a letter, and Ctrl/⌘-K for
 * the command palette. The rules that keep them out of the way: nothing fires while the person
 * types in a field (the mention picker lives in the comment textarea, so it is one of them), with
 * Ctrl, Alt or ⌘ held (the browser's and the screen reader's own keys), on a held key's repeats,
 * during an input method's composition, when a page's own handler took the key, or while a
 * dialog or menu is open (its keys are its own).
 */

export type ShortcutCommand =
  | { kind: 'help' }
  | { kind: 'palette' }
  | { kind: 'new-task' }
  | { kind: 'focus-search' }
  | { kind: 'go'; to: string }
  | { kind: 'move-row'; step: 1 | -1 }

/** `g` then one of these: the pages the "go to" shortcuts reach. */
export const GO_TO = {
  d: '/dashboard',
  t: '/task',
  n: '/notifications',
  c: '/chat',
} as const

const SINGLE_KEYS: Record<string, ShortcutCommand> = {
  '?': { kind: 'help' },
  c: { kind: 'new-task' },
  '/': { kind: 'focus-search' },
  j: { kind: 'move-row', step: 1 },
  k: { kind: 'move-row', step: -1 },
}

/** How long `g` waits for its second key. */
export const SEQUENCE_TIMEOUT_MS = 1500

export type KeyPress = Pick<
  KeyboardEvent,
  'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey' | 'repeat' | 'isComposing' | 'defaultPrevented'
>

export type ShortcutContext = {
  /** The focus is in a field: an input, textarea, select, or editable text. */
  isTyping: boolean
  /** A dialog or a menu (a popover) is open. */
  isDialogOpen: boolean
  /** When `g` was pressed, if it is waiting for its second key. */
  pendingSince: number | null
  now: number
}

export type ShortcutAnswer = {
  command: ShortcutCommand | null
  /** When a `g` now waits for its second key (the next press's `pendingSince`). */
  pendingSince: number | null
}

const NOTHING: ShortcutAnswer = { command: null, pendingSince: null }

/** What this key press does, given where the focus is and whether a `g` is waiting. */
export function shortcutFor(press: KeyPress, context: ShortcutContext): ShortcutAnswer {
  if (press.defaultPrevented || press.repeat || press.isComposing || context.isDialogOpen) return NOTHING
  if (isPaletteKey(press)) return { command: { kind: 'palette' }, pendingSince: null }
  if (press.ctrlKey || press.altKey || press.metaKey || context.isTyping) return NOTHING
  // `event.key` is what the layout produced: Shift gives `?` (or `/` on some layouts) and turns
  // letters into capitals, which match nothing here, so Shift+J is left to the browser.
  const isWaiting = context.pendingSince !== null && context.now - context.pendingSince <= SEQUENCE_TIMEOUT_MS
  if (isWaiting && press.key in GO_TO) {
    return { command: { kind: 'go', to: GO_TO[press.key as keyof typeof GO_TO] }, pendingSince: null }
  }
  if (press.key === 'g') return { command: null, pendingSince: context.now }
  return { command: SINGLE_KEYS[press.key] ?? null, pendingSince: null }
}

/** Ctrl-K, or ⌘-K on a Mac: the palette, from anywhere, a field included. */
function isPaletteKey(press: KeyPress) {
  return (
    (press.key === 'k' || press.key === 'K') &&
    press.ctrlKey !== press.metaKey &&
    !press.altKey &&
    !press.shiftKey
  )
}

type FocusedElement = Pick<HTMLElement, 'tagName' | 'isContentEditable' | 'getAttribute'>

const FIELD_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT'])
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider'])

/** Whether keys pressed with this element focused are the person's typing, not commands. */
export function isTypingIn(element: FocusedElement | null) {
  if (!element) return false
  if (FIELD_TAGS.has(element.tagName) || element.isContentEditable) return true
  return FIELD_ROLES.has(element.getAttribute('role') ?? '')
}

/** The row the focus moves to among `count` rows, from `current` (-1: none focused yet). */
export function nextRowIndex(current: number, step: 1 | -1, count: number) {
  if (count === 0) return -1
  if (current < 0) return step === 1 ? 0 : count - 1
  return Math.min(count - 1, Math.max(0, current + step))
}
