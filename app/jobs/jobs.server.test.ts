import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import { jobs } from '~/db/schema'
import { commit } from '~/db/write.server'
import { env } from '~/env.server'
import {
  createJobRunner,
  type JobHandler,
  LEASE_MS,
  MAX_ATTEMPTS,
  retryDelayMs,
  scheduleJob,
} from './jobs.server'

/**
 * The jobs queue: a job runs once, when due, on one runner however many there are; it is retried
 * with backoff, given up after MAX_ATTEMPTS, and picked up again if its runner died. A job
 * scheduled again under the same key keeps a waiting job's time and re-arms a running one, which
 * runs again once the run in hand ends. A started runner runs a job queued for now at once.
 */

const db = database()
const T0 = Date.parse('2030-01-01T00:00:00Z')
const silent = () => {}

afterEach(async () => {
  await db.delete(jobs)
})

async function jobRow(id: string) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  return row
}

/** A promise a handler waits on until the test opens it: a job held running. */
function heldOpen() {
  let open = () => {}
  const held = new Promise<void>((resolve) => {
    open = resolve
  })
  return { held, open }
}

/** Far below the runners' minute-long poll, and generous for a busy machine. */
const WITHIN_MOMENTS = { timeout: 3_000 }

function recorder() {
  const runs: { payload: Record<string, unknown>; at: number }[] = []
  const handler: JobHandler = async (_db, payload, now) => {
    runs.push({ payload, at: now.getTime() })
  }
  return { runs, handler }
}

describe('scheduling and running', () => {
  test('runs a job once when it is due, then deletes it', async () => {
    const { runs, handler } = recorder()
    await scheduleJob(db, { id: 'k1', type: 'record', payload: { n: 1 }, runAt: new Date(T0 + 60_000) })
    let clock = T0
    const runner = createJobRunner({ handlers: { record: handler }, now: () => clock })

    expect(await runner.runDue()).toBe(0)
    clock = T0 + 60_000
    expect(await runner.runDue()).toBe(1)
    expect(runs).toEqual([{ payload: { n: 1 }, at: T0 + 60_000 }])
    expect(await jobRow('k1')).toBeUndefined()
    expect(await runner.runDue()).toBe(0)
  })

  test('scheduling the same key again keeps the waiting job and its time', async () => {
    await scheduleJob(db, { id: 'k2', type: 'record', payload: { n: 1 }, runAt: new Date(T0 + 60_000) })
    await scheduleJob(db, { id: 'k2', type: 'record', payload: { n: 2 }, runAt: new Date(T0 + 120_000) })
    const rows = await db.select().from(jobs)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ payload: { n: 1 }, runAt: new Date(T0 + 60_000), status: 'pending' })
  })

  test('scheduled again while it runs, the job stays to run again afterwards', async () => {
    let clock = T0
    const runs: number[] = []
    const handler: JobHandler = async () => {
      runs.push(clock)
      // Work arrives while the job runs: its key is scheduled again.
      if (runs.length === 1) {
        await scheduleJob(db, { id: 'k3', type: 'record', payload: {}, runAt: new Date(T0 + 600_000) })
      }
    }
    await scheduleJob(db, { id: 'k3', type: 'record', payload: {}, runAt: new Date(T0) })
    const runner = createJobRunner({ handlers: { record: handler }, now: () => clock })

    await runner.runDue()
    expect(runs).toHaveLength(1)
    expect(await jobRow('k3')).toMatchObject({
      status: 'pending',
      runAt: new Date(T0 + 600_000),
      attempts: 0,
    })

    clock = T0 + 600_000
    await runner.runDue()
    expect(runs).toHaveLength(2)
    expect(await jobRow('k3')).toBeUndefined()
  })

  test('scheduled again while it runs, the job waits for that run to end, not for another runner', async () => {
    const gate = heldOpen()
    let runs = 0
    const handler: JobHandler = async () => {
      runs += 1
      if (runs === 1) await gate.held
    }
    await scheduleJob(db, { id: 'k4', type: 'hold', payload: {}, runAt: new Date(T0) })
    const second = openDatabase({ url: env().DATABASE_URL })
    const now = () => T0
    const a = createJobRunner({ handlers: { hold: handler }, now })
    const b = createJobRunner({ db: second, handlers: { hold: handler }, now })

    const byA = a.runDue()
    await vi.waitFor(() => expect(runs).toBe(1))
    await scheduleJob(db, { id: 'k4', type: 'hold', payload: {}, runAt: new Date(T0) })
    expect(await b.runDue()).toBe(0)
    gate.open()
    expect(await byA).toBe(1)
    expect(await b.runDue()).toBe(1)
    second.$client.close()
    expect(runs).toBe(2)
  })

  test('two runners on two connections run each job exactly once', async () => {
    const count = 12
    for (let n = 0; n < count; n++) {
      await scheduleJob(db, { id: `race-${n}`, type: 'record', payload: { n }, runAt: new Date(T0) })
    }
    const ran: number[] = []
    const slow: JobHandler = async (_db, payload) => {
      await new Promise((resolve) => setTimeout(resolve, 3))
      ran.push(payload.n as number)
    }
    const second = openDatabase({ url: env().DATABASE_URL })
    const now = () => T0
    const a = createJobRunner({ handlers: { record: slow }, now })
    const b = createJobRunner({ db: second, handlers: { record: slow }, now })

    const [byA, byB] = await Promise.all([a.runDue(), b.runDue()])
    second.$client.close()

    expect(byA + byB).toBe(count)
    // Both took part, so the test really raced them.
    expect(byA).toBeGreaterThan(0)
    expect(byB).toBeGreaterThan(0)
    expect(ran.sort((x, y) => x - y)).toEqual([...Array(count).keys()])
  })
})

describe('started runners', () => {
  // Two workers' runners on one database file, each polling only every minute: a job queued for
  // now must start on the commit that queued it. (In one process every runner hears every commit,
  // as server/cluster.ts makes every worker hear its siblings'.)
  test('a job queued for now starts at once, on the free runner while the other is busy', async () => {
    const gate = heldOpen()
    const started: string[] = []
    const handlers: Record<string, JobHandler> = {
      hold: async () => {
        started.push('hold')
        await gate.held
      },
      record: async () => {
        started.push('record')
      },
    }
    const second = openDatabase({ url: env().DATABASE_URL })
    const runners = [db, second].map((each) =>
      createJobRunner({ db: each, handlers, pollIntervalMs: 60_000 }),
    )
    for (const runner of runners) runner.start()
    // Let the first passes (at start) finish on an empty queue.
    await new Promise((resolve) => setTimeout(resolve, 50))
    try {
      // Queued as the app queues work: in the commit of the change that calls for it.
      await commit(db, { job: scheduleJob(db, { id: 'w1', type: 'hold', payload: {}, runAt: new Date() }) })
      await vi.waitFor(() => expect(started).toEqual(['hold']), WITHIN_MOMENTS)
      await commit(second, {
        job: scheduleJob(second, { id: 'w2', type: 'record', payload: {}, runAt: new Date() }),
      })
      await vi.waitFor(() => expect(started).toEqual(['hold', 'record']), WITHIN_MOMENTS)
    } finally {
      gate.open()
      await Promise.all(runners.map((runner) => runner.stop()))
      second.$client.close()
    }
  })
})

describe('failures', () => {
  test('a failing job is retried with backoff, then given up with its error kept', async () => {
    let clock = T0
    let calls = 0
    const failing: JobHandler = async () => {
      calls += 1
      throw new Error('SMTP is down')
    }
    await scheduleJob(db, { id: 'f1', type: 'fail', payload: {}, runAt: new Date(T0) })
    const runner = createJobRunner({ handlers: { fail: failing }, now: () => clock, logError: silent })

    await runner.runDue()
    let row = await jobRow('f1')
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'SMTP is down' })
    expect(row?.runAt.getTime()).toBe(T0 + retryDelayMs(1))

    while (row?.status === 'pending') {
      clock = row.runAt.getTime()
      await runner.runDue()
      row = await jobRow('f1')
    }
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    expect(calls).toBe(MAX_ATTEMPTS)

    // A failed job scheduled again (new work for the same key) gets a fresh start.
    await scheduleJob(db, { id: 'f1', type: 'fail', payload: {}, runAt: new Date(clock) })
    expect(await jobRow('f1')).toMatchObject({ status: 'pending', attempts: 0, lastError: null })
  })

  test('a job whose runner died is run again once its lease has run out', async () => {
    const { runs, handler } = recorder()
    await scheduleJob(db, { id: 'd1', type: 'record', payload: {}, runAt: new Date(T0) })
    // A runner claimed it and then vanished.
    await db
      .update(jobs)
      .set({ status: 'running', lockedUntil: new Date(T0 + LEASE_MS), attempts: 1 })
      .where(eq(jobs.id, 'd1'))
    let clock = T0 + 1_000
    const runner = createJobRunner({ handlers: { record: handler }, now: () => clock })

    expect(await runner.runDue()).toBe(0)
    clock = T0 + LEASE_MS
    expect(await runner.runDue()).toBe(1)
    expect(runs).toHaveLength(1)
  })

  test('a job of a type nobody handles fails instead of vanishing', async () => {
    await scheduleJob(db, { id: 'u1', type: 'unknown', payload: {}, runAt: new Date(T0) })
    const runner = createJobRunner({ handlers: {}, now: () => T0, logError: silent })
    await runner.runDue()
    expect(await jobRow('u1')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'No handler for jobs of type "unknown"',
    })
  })

  test('onJobDone hears of each job that finished, never of one that failed', async () => {
    const { handler } = recorder()
    const failing: JobHandler = async () => {
      throw new Error('SMTP is down')
    }
    await scheduleJob(db, { id: 'n1', type: 'record', payload: {}, runAt: new Date(T0) })
    await scheduleJob(db, { id: 'n2', type: 'fail', payload: {}, runAt: new Date(T0) })
    const done: string[] = []
    const runner = createJobRunner({
      handlers: { record: handler, fail: failing },
      now: () => T0,
      logError: silent,
      onJobDone: (job) => done.push(job.id),
    })
    await runner.runDue()
    expect(done).toEqual(['n1'])
  })
})
