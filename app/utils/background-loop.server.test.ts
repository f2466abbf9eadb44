import { describe, expect, test, vi } from 'vitest'
import { migrateDatabase } from '~/db/migrate.server'
import { jobs } from '~/db/schema'
import { runHousekeeping } from '~/services/housekeeping.server'
import { openScratchDatabase } from '../../tests/helpers/db'
import { createBackgroundLoop } from './background-loop.server'
import { errorLine } from './log.server'

/**
 * A background pass that fails for a reason other than a busy database (here, on a file nobody
 * migrated) is logged as one line without its stack, once however many passes fail, and its
 * recovery once too. A kick is never lost, however late in a pass it comes (a commit's wake-up
 * arrives at any moment), and a loop without an interval runs only when started and when kicked.
 */

test('a failing pass is one line, once for a run of failures; the first pass that works says so', async () => {
  const scratch = await openScratchDatabase()
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const logs = vi.spyOn(console, 'log').mockImplementation(() => {})
  let passes = 0
  const loop = createBackgroundLoop({
    name: 'Housekeeping',
    async pass() {
      try {
        await runHousekeeping(scratch.db)
      } finally {
        passes += 1
      }
    },
    intervalMs: 60 * 60 * 1000,
  })
  try {
    loop.start()
    await vi.waitFor(() => expect(errors).toHaveBeenCalled())
    loop.kick()
    await vi.waitFor(() => expect(passes).toBe(2))
    await migrateDatabase(scratch.db)
    loop.kick()
    await vi.waitFor(() => expect(logs).toHaveBeenCalled())

    expect(passes).toBe(3)
    expect(errors.mock.calls).toEqual([['Housekeeping failed:', expect.stringContaining('no such table')]])
    expect(logs.mock.calls).toEqual([['Housekeeping works again']])
  } finally {
    await loop.stop()
    errors.mockRestore()
    logs.mockRestore()
    scratch.close()
  }
})

test('the line names the failed query and the reason, on one line', async () => {
  const scratch = await openScratchDatabase()
  try {
    const failure = await scratch.db
      .select()
      .from(jobs)
      .then(() => undefined)
      .catch((error: unknown) => error)
    const line = errorLine(failure)
    expect(line).toMatch(/^Failed query: select .* params: : SQLITE_ERROR: no such table: jobs$/)
    expect(line).not.toContain('\n')
  } finally {
    scratch.close()
  }
})

/** Calls `then` after `hops` turns of the microtask queue. */
function afterMicrotasks(hops: number, then: () => void) {
  if (hops === 0) then()
  else queueMicrotask(() => afterMicrotasks(hops - 1, then))
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('kicks', () => {
  test('a kick at any moment of a pass, up to its very end, is followed by another pass', async () => {
    for (let hops = 0; hops <= 12; hops++) {
      let passes = 0
      const loop = createBackgroundLoop({
        pass: async () => {
          passes += 1
          if (passes === 1) afterMicrotasks(hops, () => loop.kick())
        },
        name: 'A loop',
      })
      loop.start()
      await settled()
      expect({ hops, passes }).toEqual({ hops, passes: 2 })
      await loop.stop()
    }
  })

  test('without an interval it never polls: a pass at start, then one per kick', async () => {
    let passes = 0
    const loop = createBackgroundLoop({
      pass: async () => {
        passes += 1
      },
      name: 'A loop',
    })
    loop.start()
    await settled()
    expect(passes).toBe(1)
    loop.kick()
    await settled()
    expect(passes).toBe(2)
    await loop.stop()
    loop.kick()
    await settled()
    expect(passes).toBe(2)
  })
})
