/**
 * The loop behind the server's background workers (the outbox, the jobs runner): a pass now and
 * then one every `intervalMs`, never two at once; `kick()` asks for a pass at once (or right
 * after the one running); `stop()` schedules nothing more and waits for the pass in hand.
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
  intervalMs: number
  /** A pass that throws (the database briefly unavailable) is reported; the next poll tries again. */
  onError: (error: unknown) => void
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
    if (!isPolling || isStopping) return
    timer = setTimeout(
      runPass,
      hasFailed ? (options.retryIntervalMs ?? options.intervalMs) : options.intervalMs,
    )
    // A waiting loop must never keep a process (a test run, a CLI script) alive.
    timer.unref()
  }

  function runPass() {
    if (pass) {
      isKickedDuringPass = true
      return
    }
    clearTimeout(timer)
    pass = (async () => {
      do {
        isKickedDuringPass = false
        try {
          await options.pass()
          hasFailed = false
        } catch (error) {
          hasFailed = true
          options.onError(error)
        }
      } while (isKickedDuringPass && !isStopping)
    })().finally(() => {
      pass = undefined
      schedule()
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
