import { describe, expect, test } from 'vitest'
import { nextPendingChange, PENDING_DELAY_MS, PENDING_MIN_MS } from '~/components/pending-indicator'

/**
 * Plays navigations against the rule the way `useDelayedPending` does: after every change of
 * state the previous timer is cancelled and the rule schedules the next one. Returns when the
 * indicator appeared and disappeared.
 */
function playNavigations(navigations: [start: number, end: number][]) {
  const inputs = navigations.flatMap(([start, end]) => [
    { at: start, isPending: true },
    { at: end, isPending: false },
  ])
  let state = { isPending: false, isShown: false, shownAt: 0 }
  type Timer = { at: number; isShown: boolean }
  let timer: Timer | null = null
  const seen: [ms: number, isShown: boolean][] = []
  // What the effect does after each render: the old timer is gone, the rule sets the next one.
  const rerender = (now: number): Timer | null => {
    const change = nextPendingChange({ ...state, now })
    return change ? { at: now + change.afterMs, isShown: change.isShown } : null
  }
  while (inputs.length > 0 || timer) {
    const input = inputs[0]
    if (timer && (!input || timer.at <= input.at)) {
      const now = timer.at
      state = { ...state, isShown: timer.isShown, shownAt: timer.isShown ? now : state.shownAt }
      seen.push([now, timer.isShown])
      timer = rerender(now)
    } else if (input) {
      inputs.shift()
      state = { ...state, isPending: input.isPending }
      timer = rerender(input.at)
    }
  }
  return seen
}

describe('global pending indicator timing', () => {
  test('the product rules’ timing (§3): appears after 1000 ms, stays at least 500 ms', () => {
    expect(PENDING_DELAY_MS).toBe(1000)
    expect(PENDING_MIN_MS).toBe(500)
  })

  test('a navigation under a second never shows it', () => {
    expect(playNavigations([[0, 999]])).toEqual([])
  })

  test('a slow navigation shows it from 1000 ms until it ends', () => {
    expect(playNavigations([[0, 3000]])).toEqual([
      [1000, true],
      [3000, false],
    ])
  })

  test('once shown it stays 500 ms even when the navigation ends just after', () => {
    expect(playNavigations([[0, 1100]])).toEqual([
      [1000, true],
      [1500, false],
    ])
  })

  test('a second navigation while it lingers keeps it up without a flicker', () => {
    expect(
      playNavigations([
        [0, 1200],
        [1300, 1400],
      ]),
    ).toEqual([
      [1000, true],
      [1500, false],
    ])
  })

  test('each slow navigation gets its own delay', () => {
    expect(
      playNavigations([
        [0, 2000],
        [5000, 6500],
      ]),
    ).toEqual([
      [1000, true],
      [2000, false],
      [6000, true],
      [6500, false],
    ])
  })
})
