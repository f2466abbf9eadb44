import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { nextPollDelay, type PageVisibility, retryDelay, STOP_POLLING, startPolling } from './polling'

describe('retryDelay', () => {
  test('doubles from 1 s: 1 s, 2 s, 4 s…', () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([1000, 2000, 4000, 8000])
  })

  test('never waits more than 30 s', () => {
    expect(retryDelay(5)).toBe(16_000)
    expect(retryDelay(6)).toBe(30_000)
    expect(retryDelay(50)).toBe(30_000)
  })
})

describe('nextPollDelay', () => {
  test('the normal interval while polls succeed', () => {
    expect(nextPollDelay(0, 3000)).toBe(3000)
  })

  test('three retries after 1, 2 and 4 s, then the normal interval, then a new round', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failures) => nextPollDelay(failures, 3000))).toEqual([
      1000, 2000, 4000, 3000, 1000, 2000, 4000, 3000,
    ])
  })
})

/** A tab whose visibility a test switches. */
function fakePage() {
  const target = new EventTarget()
  const page = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    show(state: DocumentVisibilityState) {
      page.visibilityState = state
      target.dispatchEvent(new Event('visibilitychange'))
    },
  }
  return page
}

describe('startPolling', () => {
  let calls: number[]
  let stop: () => void = () => {}

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 })
    calls = []
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })

  afterEach(() => {
    stop()
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  /** Starts a poller whose polls succeed or fail as `outcomes` says, in turn (then succeed). */
  function poller(page: PageVisibility, outcomes: boolean[] = [], intervalMs = 3000) {
    const poll = vi.fn(async (_signal: AbortSignal) => {
      calls.push(Date.now())
      if (outcomes.shift() === false) throw new Error('offline')
    })
    stop = startPolling(poll, intervalMs, page)
    return poll
  }

  test('polls at once, then every interval', async () => {
    poller(fakePage())
    await vi.advanceTimersByTimeAsync(9000)
    expect(calls).toEqual([0, 3000, 6000, 9000])
  })

  test('retries a failing poll after 1, 2 and 4 s, then keeps the interval until it succeeds', async () => {
    poller(fakePage(), [false, false, false, false, false])
    await vi.advanceTimersByTimeAsync(14_000)
    // fails at 0, 1000, 3000, 7000 (retries spent), 10000 (a new round), succeeds at 11000
    expect(calls).toEqual([0, 1000, 3000, 7000, 10_000, 11_000, 14_000])
    expect(console.error).toHaveBeenCalledTimes(1)
  })

  test('does not poll while the tab is hidden, and polls at once when it shows again', async () => {
    const page = fakePage()
    poller(page)
    await vi.advanceTimersByTimeAsync(1000)
    page.show('hidden')
    await vi.advanceTimersByTimeAsync(19_000)
    expect(calls).toEqual([0])
    page.show('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([0, 20_000])
    await vi.advanceTimersByTimeAsync(3000)
    expect(calls).toEqual([0, 20_000, 23_000])
  })

  test('a tab hidden and shown again between two polls keeps its schedule', async () => {
    const page = fakePage()
    poller(page)
    await vi.advanceTimersByTimeAsync(1000)
    page.show('hidden')
    page.show('visible')
    await vi.advanceTimersByTimeAsync(5000)
    expect(calls).toEqual([0, 3000, 6000])
  })

  test('a tab hidden from the start polls only once shown', async () => {
    const page = fakePage()
    page.visibilityState = 'hidden'
    poller(page)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toEqual([])
    page.show('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([10_000])
  })

  test('stopping aborts the poll in flight and schedules nothing more', async () => {
    let signal: AbortSignal | undefined
    stop = startPolling(
      (given) => {
        signal = given
        calls.push(Date.now())
        return new Promise(() => {})
      },
      3000,
      fakePage(),
    )
    stop()
    expect(signal?.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toEqual([0])
  })

  test('a poll that returns STOP_POLLING is the last one', async () => {
    const page = fakePage()
    stop = startPolling(
      async () => {
        calls.push(Date.now())
        return calls.length === 2 ? STOP_POLLING : undefined
      },
      3000,
      page,
    )
    await vi.advanceTimersByTimeAsync(30_000)
    expect(calls).toEqual([0, 3000])
    // Nor does the tab coming back start it again.
    page.show('hidden')
    page.show('visible')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toEqual([0, 3000])
  })

  test('never runs two polls at once: the next waits for the slow one to finish', async () => {
    let finish: () => void = () => {}
    stop = startPolling(
      () => {
        calls.push(Date.now())
        return new Promise<void>((resolve) => {
          finish = resolve
        })
      },
      3000,
      fakePage(),
    )
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toEqual([0])
    finish()
    await vi.advanceTimersByTimeAsync(3000)
    expect(calls).toEqual([0, 13_000])
  })
})
