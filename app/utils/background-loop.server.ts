import { errorLine } from './log.server'

/**
 * The loop behind the server's background work (the outbox, the jobs runner, housekeeping,
 * Stripe reconciliation): a pass now and then one every `intervalMs`, never two at once; `kick()`
 * asks for a pass at once (or right after the one running); `stop()` schedules nothing more and
 * waits for the pass in hand. Without `intervalMs` it never polls: it passes when started and when
 * kicked. A pass's writes wait for the database's write lock as every write
 * does (`commit` and `commitAfterReading`, app/db/write.server.ts): another worker writing makes
 * a pass wait, not fail; only a lock held past every retry reaches the log, like any failure.
 */
export type BackgroundLoop = {
  start(): void
  kick(): void
  stop(): Promise<void>
  /** True once stop() was called: a pass checks it between items so it ends early. */
  isStopping(): boolean
}

export function createBackgroundLoop(options: {
  pass: () => Promise<unknown>
  intervalMs?: number
  /**
   * Names the loop in the log. A pass that throws (the database unavailable, a bug) is logged as
   * one line, once for a run of failing passes, and the first pass that works again says so: a
   * database down for an hour is two lines, not a stack trace per poll. The next poll tries again.
   */
  name: string
  /** How soon the next poll comes after a pass that threw, when sooner than `intervalMs` matters. */
  retryIntervalMs?: number
}): BackgroundLoop {
  let isPolling = false
  let isStopping = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let pass: Promise<void> | undefined
  let isKickedDuringPass = false
  let hasFailed = false

  function schedule() {
    clearTimeout(timer)
    const delayMs = hasFailed ? (options.retryIntervalMs ?? options.intervalMs) : options.intervalMs
    if (!isPolling || isStopping || delayMs === undefined) return
    timer = setTimeout(runPass, delayMs)
    // A waiting loop must never keep a process (a test run, a CLI script) alive.
    timer.unref()
  }

  function runPass() {
    if (pass) {
      isKickedDuringPass = true
      return
    }
    clearTimeout(timer)
    isKickedDuringPass = false
    pass = (async () => {
      try {
        await options.pass()
        if (hasFailed) console.log(`${options.name} works again`)
        hasFailed = false
      } catch (error) {
        if (!hasFailed) console.error(`${options.name} failed:`, errorLine(error))
        hasFailed = true
      }
    })().finally(() => {
      pass = undefined
      // Checked here, not as the pass returns: a kick in between must not be lost.
      if (isKickedDuringPass && !isStopping) runPass()
      else schedule()
    })
  }

  return {
    start() {
      if (isPolling || isStopping) return
      isPolling = true
      runPass()
    },
    kick() {
      if (isPolling && !isStopping) runPass()
    },
    async stop() {
      isStopping = true
      isPolling = false
      clearTimeout(timer)
      await pass
    },
    isStopping: () => isStopping,
  }
}
