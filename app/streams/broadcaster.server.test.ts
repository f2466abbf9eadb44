import { expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { appendEvent } from '~/events/log.server'
import { createBroadcaster } from './broadcaster.server'

/**
 * A commit of another process (a sibling worker, server/cluster.ts) does not pass through this
 * process's `onCommit`: the nudge is what reads it before the next poll.
 */
test('a nudge reads the log at once, without waiting for the poll', async () => {
  const db = database()
  const broadcaster = createBroadcaster(db, { pollMs: 60_000 })
  const receive = vi.fn()
  try {
    await broadcaster.subscribe({ receive })
    // Written outside a transaction, as a statement of another process is: no commit is announced.
    await appendEvent(db, { topic: 'tasks', type: 'task-created', taskId: 'elsewhere', payload: {} })
    expect(receive).not.toHaveBeenCalled()
    broadcaster.nudge()
    await vi.waitFor(() => expect(receive).toHaveBeenCalledTimes(1))
    expect(receive.mock.calls[0]?.[0]).toMatchObject({ type: 'task-created', taskId: 'elsewhere' })
  } finally {
    broadcaster.stop()
  }
})
