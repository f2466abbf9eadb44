import cluster, { type Worker } from 'node:cluster'
import { onCommit } from '~/db/client.server'

/**
 * Every core of one machine (docs/decisions/025-every-core-through-node-cluster.md): a primary
 * process that owns no requests forks `WEB_CONCURRENCY` workers, each the whole server, sharing
 * one port (the primary hands them connections in turn) and one WAL database file.
 */

/**
 * What a worker tells its siblings, through the primary, after it commits: the event log may
 * have grown, and a job may be due now.
 */
const COMMITTED = { type: 'threadwork:committed' } as const

/** How long the primary waits for its workers to drain: each forces its own exit after 10 s. */
const DRAIN_LIMIT_MS = 12_000

const ignore = () => {}

function isCommitted(message: unknown) {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === COMMITTED.type
  )
}

/**
 * The primary, once migrations have run: forks the workers and keeps their number, passes each
 * worker's commits on to the others, and on SIGTERM/SIGINT lets every worker drain before it
 * exits. `env` is what every worker gets on top of the primary's own environment.
 */
export function runPrimary({
  workers,
  env,
}: {
  workers: number
  /** What worker `slot` (0 to workers - 1, kept by its replacement) gets in its environment. */
  env: (slot: number) => Record<string, string>
}) {
  let isStopping = false
  let isEveryExitClean = true

  // Workers that came up. One that dies before it listens would only die again (a bad build or
  // a database it cannot open): the primary stops and leaves restarting to the platform.
  const listening = new WeakSet<Worker>()
  const slots = new WeakMap<Worker, number>()
  const fork = (slot: number) => {
    const worker = cluster.fork(env(slot))
    slots.set(worker, slot)
    worker.once('listening', () => {
      listening.add(worker)
    })
    return worker
  }

  cluster.on('message', (from, message) => {
    if (!isCommitted(message)) return
    for (const sibling of Object.values(cluster.workers ?? {})) {
      // A sibling that is going away needs no nudge: a failed send is ignored, not an error event.
      if (sibling && sibling !== from && sibling.isConnected()) sibling.send(COMMITTED, ignore)
    }
  })

  cluster.on('exit', (worker, code, signal) => {
    const how = signal ?? `exit code ${code}`
    if (isStopping) {
      // One still starting had no request to finish: the signal may end it before its handler is set.
      if (code !== 0 && listening.has(worker)) isEveryExitClean = false
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        console.log(isEveryExitClean ? 'Stopped' : 'Stopped: a worker did not drain cleanly')
        process.exit(isEveryExitClean ? 0 : 1)
      }
      return
    }
    if (!listening.has(worker)) {
      console.error(`Worker ${worker.process.pid} ended (${how}) before it listened; stopping`)
      stop('a worker that cannot start', 1)
      return
    }
    const replacement = fork(slots.get(worker) ?? 0)
    console.error(
      `Worker ${worker.process.pid} ended (${how}); started worker ${replacement.process.pid} in its place`,
    )
  })

  const stop = (reason: string, exitCode = 0) => {
    if (isStopping) return
    isStopping = true
    if (exitCode !== 0) isEveryExitClean = false
    const running = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined)
    console.log(`${reason}: every worker finishes its in-flight requests, then stops`)
    if (running.length === 0) process.exit(exitCode)
    for (const worker of running) worker.process.kill('SIGTERM')
    setTimeout(() => {
      console.error(`Forced exit: workers still running after ${DRAIN_LIMIT_MS / 1000} s`)
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
      process.exit(1)
    }, DRAIN_LIMIT_MS).unref()
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))

  console.log(`Threadwork primary ${process.pid}: starting ${workers} workers`)
  for (let slot = 0; slot < workers; slot++) fork(slot)
}

/**
 * In a worker: tells the siblings after each commit of this process (at most once per turn of
 * the event loop, however many commits it made), and calls `onSiblingCommit` when a sibling
 * commits, so its event reaches every worker's streams, and the job it queued for now every
 * worker's runner, at once instead of at the next poll. Does nothing outside a cluster.
 */
export function joinSiblings(onSiblingCommit: () => void) {
  if (!cluster.isWorker) return
  let isAnnouncing = false
  onCommit(() => {
    if (isAnnouncing) return
    isAnnouncing = true
    setImmediate(() => {
      isAnnouncing = false
      if (process.connected) process.send?.(COMMITTED, undefined, undefined, ignore)
    })
  })
  process.on('message', (message) => {
    if (isCommitted(message)) onSiblingCommit()
  })
}

export const isClusterWorker = () => cluster.isWorker

/**
 * The database a worker opens. An embedded replica is one process's file: libSQL's sync writes
 * into it and must not race another process doing the same, so worker 0 keeps `DATABASE_URL`'s
 * file (the one the primary migrated through, closed before forking) and every other worker gets
 * its own beside it (`replica.db` → `replica.worker-1.db`). A plain file is shared by all: SQLite's
 * locks keep its writers apart.
 */
export function workerDatabaseUrl(url: string, hasSyncUrl: boolean, slot: number) {
  if (!hasSyncUrl || slot === 0 || !url.startsWith('file:')) return url
  const [path = '', query] = url.split('?', 2)
  const dot = path.lastIndexOf('.')
  const base = dot > path.lastIndexOf('/') ? path.slice(0, dot) : path
  const extension = dot > path.lastIndexOf('/') ? path.slice(dot) : ''
  return `${base}.worker-${slot}${extension}${query === undefined ? '' : `?${query}`}`
}
