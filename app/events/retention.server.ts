import { database } from '~/db/client.server'
import { type BackgroundLoop, createBackgroundLoop } from '~/utils/background-loop.server'
import { pruneEvents } from './log.server'

/**
 * Each instance prunes the event log hourly to what streams can still resume from (24 hours);
 * a client whose cursor is older is told to refetch instead. Deleting rows that another instance
 * deleted already is harmless, so instances need not take turns.
 */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

let loop: BackgroundLoop | undefined

export function startEventPruning() {
  loop ??= createBackgroundLoop({
    pass: () => pruneEvents(database()),
    intervalMs: PRUNE_INTERVAL_MS,
    onError: (error) => console.error('Pruning the event log failed', error),
  })
  loop.start()
}

export async function stopEventPruning() {
  await loop?.stop()
  loop = undefined
}
