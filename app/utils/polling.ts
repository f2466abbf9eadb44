import { useEffect, useRef } from 'react'

/**
 * Polling for live data (comments every 2 s, mentions every 3 s: docs/product-rules.md §3) until
 * event streams take over: one hook, so swapping the transport touches one place.
 *
 * A failed poll is retried 3 times, the wait doubling from 1 s (never above 30 s), as
 * docs/product-rules.md §3 says; after the third retry fails the poller keeps its normal interval, and
 * each new round of failures retries again. It polls only while the tab is visible, and at once
 * when the tab comes back.
 */

const POLL_RETRIES = 3
const FIRST_RETRY_MS = 1000
const LONGEST_RETRY_MS = 30_000

/** The wait before retry number `retry` (1, 2, 3…): 1 s, 2 s, 4 s…, at most 30 s. */
export function retryDelay(retry: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (retry - 1), LONGEST_RETRY_MS)
}

/**
 * The wait before the next poll after `failures` failures in a row: the normal interval after a
 * success (0) or once a round of retries is spent (4, 8…), else the retry's backoff.
 */
export function nextPollDelay(failures: number, intervalMs: number): number {
  const retry = failures % (POLL_RETRIES + 1)
  return retry === 0 ? intervalMs : retryDelay(retry)
}

/** What a poll returns when there will be nothing more to read (the thing polled is gone). */
export const STOP_POLLING = Symbol('stop polling')

/** What the poller needs of `document`, so tests can stand in for a tab. */
export type PageVisibility = Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>

/**
 * Runs `poll` now and then again on schedule until the returned stop function is called, or a
 * poll returns `STOP_POLLING`. Only one poll is in flight at a time; stopping aborts it
 * (`signal`) and schedules nothing more.
 */
export function startPolling(
  poll: (signal: AbortSignal) => Promise<unknown>,
  intervalMs: number,
  page: PageVisibility,
): () => void {
  let failures = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight: AbortController | null = null
  let isPausedWhileHidden = false
  let isStopped = false

  async function run() {
    timer = undefined
    if (page.visibilityState === 'hidden') {
      isPausedWhileHidden = true
      return
    }
    const controller = new AbortController()
    inFlight = controller
    try {
      if ((await poll(controller.signal)) === STOP_POLLING) stop()
      failures = 0
    } catch (error) {
      if (controller.signal.aborted) return
      failures += 1
      // One line per spent round of retries, not one per attempt while offline.
      if (failures % (POLL_RETRIES + 1) === 0) console.error('Polling failed', error)
    } finally {
      inFlight = null
    }
    if (!isStopped) timer = setTimeout(run, nextPollDelay(failures, intervalMs))
  }

  function onVisibilityChange() {
    if (page.visibilityState === 'visible' && isPausedWhileHidden) {
      isPausedWhileHidden = false
      void run()
    }
  }

  function stop() {
    isStopped = true
    clearTimeout(timer)
    inFlight?.abort()
    page.removeEventListener('visibilitychange', onVisibilityChange)
  }

  page.addEventListener('visibilitychange', onVisibilityChange)
  void run()
  return stop
}

/**
 * Polls with `poll` every `intervalMs` while `enabled` and the tab is visible. The latest `poll`
 * is always the one called, so it may close over fresh props without restarting the schedule.
 */
export function usePolling(
  poll: (signal: AbortSignal) => Promise<unknown>,
  intervalMs: number,
  { enabled = true }: { enabled?: boolean } = {},
) {
  const latestPoll = useRef(poll)
  useEffect(() => {
    latestPoll.current = poll
  })
  useEffect(() => {
    if (!enabled) return
    return startPolling((signal) => latestPoll.current(signal), intervalMs, document)
  }, [enabled, intervalMs])
}
