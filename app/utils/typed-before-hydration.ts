/**
 * Text a person typed into the server's HTML before the scripts ran must survive hydration, and
 * React does not keep it everywhere: it sets a <textarea>'s value back to the server's text when
 * that text is not empty (the share field's saved list, a task's details), and a controlled
 * field's state starts from the server's value, so its next render puts that value back. So the
 * entry notes every text field whose value differs from the server's before it hydrates (and
 * whatever is typed until hydration ends), and once hydrated each one gets its text back through
 * an input event, as if typed: the DOM and React's state both end with what the person wrote.
 */

type TextField = HTMLInputElement | HTMLTextAreaElement

const TEXT_FIELDS =
  'textarea, input:not([type]), input[type=text], input[type=search], input[type=email], input[type=url], input[type=tel], input[type=password], input[type=number]'

/** A field's text and where its caret was, as last noted. */
type Typed = { text: string; start: number | null; end: number | null }

let typed: Map<TextField, Typed> | undefined

function note(field: TextField) {
  typed?.set(field, { text: field.value, start: field.selectionStart, end: field.selectionEnd })
}

function noteTyped(event: Event) {
  const field = event.target
  if (
    (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
    field.matches(TEXT_FIELDS)
  )
    note(field)
}

/** Called by the entry before it hydrates. */
export function noteTextTypedBeforeHydration() {
  typed = new Map()
  for (const field of document.querySelectorAll<TextField>(TEXT_FIELDS)) {
    if (field.value !== field.defaultValue) note(field)
  }
  document.addEventListener('input', noteTyped, true)
}

/** Called once the page has hydrated (the root's layout effect): each noted field gets its text back. */
export function restoreTextTypedBeforeHydration() {
  const fields = typed
  typed = undefined
  document.removeEventListener('input', noteTyped, true)
  for (const [field, noted] of fields ?? []) {
    if (field.isConnected) giveBack(field, noted)
  }
}

function giveBack(field: TextField, noted: Typed) {
  const { text } = noted
  // Where the caret is now, unless hydration replaced the text (and moved it): then where it was.
  const isKept = field.value === text
  const start = isKept ? field.selectionStart : noted.start
  const end = isKept ? field.selectionEnd : noted.end
  const isFocused = document.activeElement === field
  const prototype =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
  // Through React's value tracker, then past it: the input event then reads as a change, and a
  // controlled field's onChange takes the text into its state.
  field.value = ''
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, text)
  field.dispatchEvent(new Event('input', { bubbles: true }))
  if (isFocused && start !== null && end !== null) field.setSelectionRange(start, end)
}
