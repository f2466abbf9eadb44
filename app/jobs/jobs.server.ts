import { and, asc, eq, gt, isNull, lte, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { type Database, database, onCommit } from '~/db/client.server'
import { jobs } from '~/db/schema'
import { type Builder, commit, insertIf, prepareStep } from '~/db/write.server'
import { createBackgroundLoop } from '~/utils/background-loop.server'
import { errorLine } from '~/utils/log.server'
import { jobRuns, type QueueState, queueState } from '~/utils/metrics.server'
import { withSpan } from '~/utils/tracing.server'

/**
 * Work that runs later, on whichever instance gets to it first: the `jobs` table is the queue,
 * shared by every instance through the database. A job is claimed with a conditional UPDATE (to
 * `running`, leased until `lockedUntil`), so exactly one runner wins it; a runner that dies leaves
 * the lease to run out, and the job is run again. A failure is retried with backoff and given up
 * after MAX_ATTEMPTS; a finished job is deleted (what it did — an e-mail in the outbox — is the
 * record). A started runner looks for due jobs after every commit of its process and, through
 * the cluster, of its sibling workers (`kick`, server/cluster.ts), so work queued for now starts
 * at once on whichever runner is free; the poll is for other machines' writes, for jobs that
 * become due later, and a fallback.
 */

export const MAX_ATTEMPTS = 5
const FIRST_RETRY_MS = 60_000
export const LEASE_MS = 5 * 60_000
const POLL_INTERVAL_MS = 15_000
const BATCH_SIZE = 10
const MAX_ERROR_LENGTH = 1_000

type Job = typeof jobs.$inferSelect

/** What a job of one type does; it gets the database, the job's payload and the runner's clock. */
export type JobHandler = (db: Database, payload: Record<string, unknown>, now: Date) => Promise<unknown>

/**
 * Schedules a job under a key of the caller's choosing (its id), so a job is never queued twice:
 * one already waiting keeps its time (a batch stays anchored to its first cause), and one that is
 * running, failed or finished is set to run again at `runAt` — whatever the running one does,
 * work that arrived after it started is not lost. A running one keeps its lease, so it runs again
 * once the run in hand has ended, never beside it on another runner. A statement: name it in the
 * commit of the change that calls for the job (app/db/write.server.ts), so both commit or neither
 * does; with `onlyIf`, it is scheduled only when that holds as the commit reaches it.
 */
export function scheduleJob(db: Builder, job: ScheduledJob, onlyIf: SQL = sql`1`) {
  const now = new Date()
  return upsertJob(
    insertIf(
      db,
      jobs,
      { ...job, status: 'pending', attempts: 0, lockedUntil: null, createdAt: now, updatedAt: now },
      onlyIf,
    ),
  )
}

type ScheduledJob = { id: string; type: string; payload: Record<string, unknown>; runAt: Date }

/**
 * The statements that make a job run at `runAt`, or sooner if it waits for later: scheduling
 * alone keeps a waiting job's time, and new work must not wait for a retry or a recurring job's
 * next period. For the commit that calls for the work, and only while `onlyIf` holds.
 */
export function scheduleJobBy(db: Builder, job: ScheduledJob, onlyIf: SQL = sql`1`) {
  return [
    scheduleJob(db, job, onlyIf),
    db
      .update(jobs)
      .set({ runAt: job.runAt })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'pending'), gt(jobs.runAt, job.runAt), onlyIf)),
  ]
}

/** What scheduling does to a job already there (see scheduleJob). */
function upsertJob(insert: ReturnType<typeof insertIf<typeof jobs>>) {
  const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`
  return insert.onConflictDoUpdate({
    target: jobs.id,
    set: {
      type: excluded(jobs.type),
      payload: excluded(jobs.payload),
      status: 'pending',
      runAt: excluded(jobs.runAt),
      attempts: 0,
      lastError: null,
      updatedAt: excluded(jobs.updatedAt),
    },
    setWhere: ne(jobs.status, 'pending'),
  })
}

/**
 * scheduleJob with its SQL built once, for the hottest writes (prepareStep): `onlyIf` is fixed
 * when the statement is made, and the job's values are placeholders filled by `jobValues`.
 */
export function prepareJob(onlyIf: SQL) {
  const now = sql.placeholder('now')
  const step = prepareStep((db) =>
    upsertJob(
      insertIf(
        db,
        jobs,
        {
          id: sql.placeholder('jobId'),
          type: sql.placeholder('jobType'),
          payload: sql.placeholder('jobPayload'),
          status: 'pending',
          attempts: 0,
          runAt: sql.placeholder('jobRunAt'),
          lockedUntil: null,
          createdAt: now,
          updatedAt: now,
        },
        onlyIf,
      ),
    ),
  )
  return (job: ScheduledJob, values: Record<string, unknown>, now: number) =>
    step({
      ...values,
      jobId: job.id,
      jobType: job.type,
      jobPayload: JSON.stringify(job.payload),
      jobRunAt: job.runAt.getTime(),
      now,
    })
}

/** Wait before the next try after `attempts` failed ones: 1 min, 2, 4, 8 … */
export function retryDelayMs(attempts: number) {
  return FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1)
}

export type JobRunnerOptions = {
  db?: Database
  handlers: Record<string, JobHandler>
  pollIntervalMs?: number
  /** The clock, in ms; tests move it to make jobs due. */
  now?: () => number
  logError?: (message: string, error?: unknown) => void
  /**
   * Called after each job that finished. The server wakes the e-mail outbox here, as the e-mail
   * middleware does after a request: what a job queued goes out now, not at the outbox's next poll.
   */
  onJobDone?: (job: Job) => void
}

export type JobRunner = {
  /** Runs every job due now and returns how many finished. */
  runDue(): Promise<number>
  /** Runs what is due now and from then on after every commit of this process, and at each poll. */
  start(): void
  /** Looks for due jobs now rather than at the next poll: another process committed. */
  kick(): void
  /** Stops polling and waits for the job in hand. */
  stop(): Promise<void>
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const db = options.db ?? database()
  const { handlers } = options
  const pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS
  const now = options.now ?? Date.now
  const logError = options.logError ?? ((message, error) => console.error(message, error ?? ''))

  // A label takes only the types this runner knows: a row's stray type must not grow the series.
  const metricJobType = (type: string) => (Object.hasOwn(handlers, type) ? type : 'unknown')

  const isDue = (at: Date | Placeholder) =>
    or(
      // Scheduled again while it ran, a job waits for that run to end (or its lease to run out).
      and(
        eq(jobs.status, 'pending'),
        lte(jobs.runAt, at),
        or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, at)),
      ),
      // A runner that died mid-job: its lease has run out.
      and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, at)),
    )

  async function claim(id: string) {
    const at = new Date(now())
    const lockedUntil = new Date(at.getTime() + LEASE_MS)
    const { claimed } = await commit(db, {
      claimed: db
        .update(jobs)
        .set({ status: 'running', lockedUntil, attempts: sql`${jobs.attempts} + 1` })
        .where(and(eq(jobs.id, id), isDue(at))),
    })
    if (claimed.rowsAffected === 0) return undefined
    // Read back as drizzle types it; rescheduled since the claim, it is not ours to run.
    const ours = and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.lockedUntil, lockedUntil))
    const [job] = await db.select().from(jobs).where(ours)
    return job
  }

  /** Only while the job is still ours: rescheduled meanwhile, it must stay to run again. */
  const isStillOurs = (job: Job) =>
    and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedUntil, job.lockedUntil as Date))

  /** The run has ended: a job scheduled again meanwhile, which kept our lease, may be claimed. */
  const released = (job: Job) =>
    db
      .update(jobs)
      .set({ lockedUntil: null })
      .where(
        and(eq(jobs.id, job.id), eq(jobs.status, 'pending'), eq(jobs.lockedUntil, job.lockedUntil as Date)),
      )

  async function run(job: Job) {
    const handler = handlers[job.type]
    try {
      if (!handler) throw new Error(`No handler for jobs of type "${job.type}"`)
      await withSpan(`job ${job.type}`, { 'job.type': job.type, 'job.attempt': job.attempts }, () =>
        handler(db, job.payload, new Date(now())),
      )
    } catch (error) {
      const message = errorLine(error).slice(0, MAX_ERROR_LENGTH)
      const isGivingUp = job.attempts >= MAX_ATTEMPTS
      jobRuns.inc({ type: metricJobType(job.type), outcome: isGivingUp ? 'failed' : 'retry' })
      logError(
        `Job ${job.id} (${job.type}) failed (attempt ${job.attempts} of ${MAX_ATTEMPTS})${isGivingUp ? ', giving up' : ''}:`,
        message,
      )
      await commit(db, {
        failed: db
          .update(jobs)
          .set({
            status: isGivingUp ? 'failed' : 'pending',
            runAt: new Date(now() + retryDelayMs(job.attempts)),
            lockedUntil: null,
            lastError: message,
          })
          .where(isStillOurs(job)),
        released: released(job),
      })
      return false
    }
    await commit(db, { done: db.delete(jobs).where(isStillOurs(job)), released: released(job) })
    jobRuns.inc({ type: metricJobType(job.type), outcome: 'done' })
    options.onJobDone?.(job)
    return true
  }

  // Built once: a started runner reads it after every commit, so it is on every write's path.
  const dueJobs = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(isDue(sql.placeholder('at')))
    .orderBy(asc(jobs.runAt))
    .limit(BATCH_SIZE)
    .prepare()

  async function runDue() {
    let finished = 0
    const tried = new Set<string>()
    while (!loop.isStopping()) {
      const due = await dueJobs.execute({ at: now() })
      // A job rescheduled for now while it ran is due again at once: it waits for the next pass.
      const fresh = due.filter((job) => !tried.has(job.id))
      if (fresh.length === 0) break
      for (const { id } of fresh) {
        if (loop.isStopping()) break
        tried.add(id)
        const job = await claim(id)
        if (job && (await run(job))) finished += 1
      }
    }
    return finished
  }

  const loop = createBackgroundLoop({
    pass: runDue,
    intervalMs: pollIntervalMs,
    name: 'Job runner',
  })

  let stopListening: (() => void) | undefined
  return {
    runDue,
    start() {
      stopListening ??= onCommit(loop.kick)
      loop.start()
    },
    kick: loop.kick,
    async stop() {
      stopListening?.()
      stopListening = undefined
      await loop.stop()
    },
  }
}

// ── The process's runner ────────────────────────────────────────────────────

let current: JobRunner | undefined

/** Starts this process's runner (the server does, at boot). */
export function startJobRunner(options: JobRunnerOptions) {
  current ??= createJobRunner(options)
  current.start()
  return current
}

/** Wakes this process's runner: a sibling worker committed, and may have queued a job due now. */
export function kickJobRunner() {
  current?.kick()
}

export async function stopJobRunner() {
  const runner = current
  current = undefined
  await runner?.stop()
}

/**
 * The jobs table as the metrics see it: jobs waiting, given up, and how long the most overdue
 * has been due (a job scheduled for later is not late: a delayed mention waits on purpose).
 */
export async function jobsQueueState(db: Database, now = Date.now()): Promise<QueueState> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${jobs.status} in ('pending', 'running'))`,
      failed: sql<number>`count(*) filter (where ${jobs.status} = 'failed')`,
      oldestDue: sql<
        number | null
      >`min(${jobs.runAt}) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} <= ${now})`,
    })
    .from(jobs)
  return queueState(row, now)
}
