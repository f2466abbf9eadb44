import { type Database, database } from '~/db/client.server'
import { pruneEvents } from '~/events/log.server'
import { type BackgroundLoop, createBackgroundLoop } from '~/utils/background-loop.server'
import { scheduleDueReminders } from './due-reminders.server'
import { pruneExpiredPasskeyChallenges } from './passkeys.server'
import { pruneRateLimits } from './rate-limit.server'
import { pruneExpiredSessions } from './sessions.server'
import { scheduleWebhookFanOut } from './webhooks/fan-out.server'

/**
 * Rows that nothing reads any more, deleted hourly by each instance: events older than streams
 * can resume from (24 hours; a client whose cursor is older is told to refetch), sessions past
 * their expiry (a request would refuse them anyway) and rate-limit windows that have ended,
 * and passkey challenges past their five minutes.
 * Deleting rows another instance deleted already is harmless, so instances need not take turns.
 * Each pass also makes sure the due-date reminders' recurring job exists (it reschedules itself
 * every minute; this covers a boot that could not schedule it), and so does the webhooks' fan-out.
 */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

export async function pruneStaleRows(db: Database, now = new Date()) {
  const events = await pruneEvents(db, now)
  await pruneExpiredSessions(db, now)
  await pruneRateLimits(db, now.getTime())
  await pruneExpiredPasskeyChallenges(db, now)
  return { events }
}

/** One pass, at boot and hourly: the recurring jobs made sure of, then the stale rows deleted. */
export async function runHousekeeping(db: Database, now = new Date()) {
  await scheduleDueReminders(db, now)
  await scheduleWebhookFanOut(db, now)
  await pruneStaleRows(db, now)
}

let loop: BackgroundLoop | undefined

export function startHousekeeping() {
  loop ??= createBackgroundLoop({
    pass: () => runHousekeeping(database()),
    intervalMs: PRUNE_INTERVAL_MS,
    name: 'Housekeeping',
  })
  loop.start()
}

export async function stopHousekeeping() {
  await loop?.stop()
  loop = undefined
}
