import { describe, expect, test } from 'vitest'
import { matchingItems, taskItems } from './palette-items'
import {
  GO_TO,
  isTypingIn,
  type KeyPress,
  nextRowIndex,
  SEQUENCE_TIMEOUT_MS,
  type ShortcutContext,
  shortcutFor,
} from './shortcuts'

const press = (key: string, held: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  repeat: false,
  isComposing: false,
  defaultPrevented: false,
  ...held,
})

const idle: ShortcutContext = { isTyping: false, isDialogOpen: false, pendingSince: null, now: 10_000 }

/** Presses keys one after another, `gap` ms apart, and returns the commands they gave. */
function typeKeys(keys: string[], gap = 100) {
  let context = idle
  return keys.map((key) => {
    const answer = shortcutFor(press(key), context)
    context = { ...context, pendingSince: answer.pendingSince, now: context.now + gap }
    return answer.command
  })
}

describe('which key presses are shortcuts', () => {
  test.each([
    ['?', { kind: 'help' }],
    ['c', { kind: 'new-task' }],
    ['/', { kind: 'focus-search' }],
    ['j', { kind: 'move-row', step: 1 }],
    ['k', { kind: 'move-row', step: -1 }],
  ])('%s alone', (key, command) => {
    expect(shortcutFor(press(key), idle).command).toEqual(command)
  })

  test('? is typed with Shift on most layouts, and still counts', () => {
    expect(shortcutFor(press('?', { shiftKey: true }), idle).command).toEqual({ kind: 'help' })
  })

  test.each(Object.entries(GO_TO))('g then %s goes to %s', (key, to) => {
    expect(typeKeys(['g', key])).toEqual([null, { kind: 'go', to }])
  })

  test('g then c goes to the chat, not to a new task; c alone starts one', () => {
    expect(typeKeys(['g', 'c', 'c'])).toEqual([null, { kind: 'go', to: '/chat' }, { kind: 'new-task' }])
  })

  test('a second key that comes too late is a key of its own', () => {
    expect(typeKeys(['g', 'd'], SEQUENCE_TIMEOUT_MS + 1)).toEqual([null, null])
    expect(typeKeys(['g', 'c'], SEQUENCE_TIMEOUT_MS + 1)).toEqual([null, { kind: 'new-task' }])
  })

  test('another key after g cancels the sequence', () => {
    expect(typeKeys(['g', 'x', 'd'])).toEqual([null, null, null])
  })

  test.each([
    ['Ctrl', { ctrlKey: true }],
    ['⌘', { metaKey: true }],
  ])('%s-K opens the palette, in a field too', (_, held) => {
    expect(shortcutFor(press('k', held), idle).command).toEqual({ kind: 'palette' })
    expect(shortcutFor(press('k', held), { ...idle, isTyping: true }).command).toEqual({ kind: 'palette' })
  })

  test.each([
    ['Ctrl-Shift-K', { ctrlKey: true, shiftKey: true }],
    ['Ctrl-Alt-K (AltGr)', { ctrlKey: true, altKey: true }],
    ['Ctrl-⌘-K', { ctrlKey: true, metaKey: true }],
  ])('%s is left to the browser', (_, held) => {
    expect(shortcutFor(press('k', held), idle).command).toBeNull()
  })
})

describe('when shortcuts never fire', () => {
  const keys = ['?', 'c', '/', 'j', 'k', 'g']

  test.each(keys)('%s while typing in a field', (key) => {
    expect(shortcutFor(press(key), { ...idle, isTyping: true })).toEqual({
      command: null,
      pendingSince: null,
    })
  })

  test('g then d while typing in a field', () => {
    const first = shortcutFor(press('g'), idle)
    expect(
      shortcutFor(press('d'), { ...idle, isTyping: true, pendingSince: first.pendingSince }).command,
    ).toBeNull()
  })

  test.each(
    keys.flatMap((key) => [
      // Ctrl-K and ⌘-K are the palette's.
      ...(key === 'k' ? [] : [[key, { ctrlKey: true }] as const, [key, { metaKey: true }] as const]),
      [key, { altKey: true }] as const,
    ]),
  )('%s with a modifier %o', (key, held) => {
    expect(shortcutFor(press(key, held), idle).command).toBeNull()
  })

  test.each(['J', 'K', 'C', 'G'])('Shift turns %s into a capital, which is no shortcut', (key) => {
    expect(shortcutFor(press(key, { shiftKey: true }), idle).command).toBeNull()
  })

  test.each([
    ['a held key repeating', { repeat: true }],
    ['an input method composing', { isComposing: true }],
    ['a page handler that took the key', { defaultPrevented: true }],
  ])('while %s', (_, state) => {
    expect(shortcutFor(press('?', state), idle).command).toBeNull()
    expect(shortcutFor(press('k', { ...state, ctrlKey: true }), idle).command).toBeNull()
  })

  test('while a dialog or menu is open, the palette key included', () => {
    expect(shortcutFor(press('?'), { ...idle, isDialogOpen: true }).command).toBeNull()
    expect(shortcutFor(press('k', { ctrlKey: true }), { ...idle, isDialogOpen: true }).command).toBeNull()
  })

  test('keys the browser and screen readers use are not shortcuts', () => {
    for (const key of ['Tab', 'Enter', 'Escape', ' ', 'ArrowDown', 'h', 'F6', 'Home']) {
      expect(shortcutFor(press(key), idle).command, key).toBeNull()
    }
  })
})

describe('what counts as typing', () => {
  const element = (tagName: string, { role = null as string | null, isContentEditable = false } = {}) => ({
    tagName,
    isContentEditable,
    getAttribute: (name: string) => (name === 'role' ? role : null),
  })

  test.each(['INPUT', 'TEXTAREA', 'SELECT'])('a focused %s', (tag) => {
    expect(isTypingIn(element(tag))).toBe(true)
  })

  test('editable text, and widgets that take typed keys', () => {
    expect(isTypingIn(element('DIV', { isContentEditable: true }))).toBe(true)
    for (const role of ['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']) {
      expect(isTypingIn(element('DIV', { role })), role).toBe(true)
    }
  })

  test('links, buttons, the page itself and nothing focused', () => {
    for (const tag of ['A', 'BUTTON', 'BODY']) expect(isTypingIn(element(tag)), tag).toBe(false)
    expect(isTypingIn(null)).toBe(false)
  })
})

describe('moving between rows', () => {
  test('from no row, j takes the first and k the last', () => {
    expect(nextRowIndex(-1, 1, 5)).toBe(0)
    expect(nextRowIndex(-1, -1, 5)).toBe(4)
  })

  test('steps and stops at either end', () => {
    expect(nextRowIndex(2, 1, 5)).toBe(3)
    expect(nextRowIndex(2, -1, 5)).toBe(1)
    expect(nextRowIndex(4, 1, 5)).toBe(4)
    expect(nextRowIndex(0, -1, 5)).toBe(0)
  })

  test('no rows, nowhere to go', () => {
    expect(nextRowIndex(-1, 1, 0)).toBe(-1)
  })
})

describe('what the palette offers', () => {
  const labels = (isSignedIn: boolean, query = '') =>
    matchingItems(isSignedIn, query).map((item) => item.label)

  test('a signed-in person: every page of the app, and the three actions', () => {
    expect(labels(true)).toEqual([
      'Dashboard',
      'Tasks',
      'Notifications',
      'AI Chat',
      'Saved chats',
      'Docs',
      'Blog',
      'Pricing',
      'Settings',
      'New task',
      'Toggle light or dark theme',
      'Sign out',
    ])
  })

  test('a visitor: only the public pages, signing in and the theme', () => {
    const offered = matchingItems(false, '')
    expect(offered.map((item) => item.label)).not.toContain('Dashboard')
    expect(offered.map((item) => item.label)).not.toContain('Sign out')
    expect(offered.map((item) => item.label)).not.toContain('New task')
    expect(offered.find((item) => item.label === 'Sign in')?.run).toEqual({ kind: 'go', to: '/login' })
  })

  test('the query matches every word, in any case, label or kind', () => {
    expect(labels(true, 'NOTIF')).toEqual(['Notifications'])
    expect(labels(true, 'chat ai')).toEqual(['AI Chat'])
    expect(labels(true, 'action theme')).toEqual(['Toggle light or dark theme'])
    expect(labels(true, 'nothing like this')).toEqual([])
  })

  test('tasks from a search answer open at /task?task=<id>', () => {
    expect(taskItems({ query: 'depl', tasks: [{ id: 'a b', text: 'Deploy', details: '' }] })).toEqual([
      { id: 'task-a b', label: 'Deploy', kind: 'Task', run: { kind: 'go', to: '/task?task=a%20b' } },
    ])
  })

  test.each([
    undefined,
    null,
    'Not Found',
    { message: 'Type something' },
    { tasks: 'no' },
    { tasks: [{ id: 1 }] },
  ])('an answer without tasks (%o) finds none', (answer) => {
    expect(taskItems(answer)).toEqual([])
  })
})
