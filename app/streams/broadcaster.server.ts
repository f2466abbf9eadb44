import { type Database, onCommit } from '~/db/client.server'
import { syncReplica } from '~/db/replicas.server'
import { eventLogHead, type LoggedEvent, readEventsAfter } from '~/events/log.server'
import { readAudiences } from '~/services/tasks/audience.server'
import { storedAudience, type TaskAudience } from '~/services/tasks/rule.server'
import { eventStreamFanOut } from '~/utils/metrics.server'

/**
 * One per process: tails the event log by id and hands each new event to every subscriber,
 * which decides for its own person whether to pass it on. Each event and the audience of its task
 * are read once per process, however many subscribers there are. A commit in this process wakes
 * it at once; while it has subscribers it also polls, for the writes of other instances sharing
 * the database. On an embedded replica each read of the log first syncs it with the primary, so
 * other instances' events arrive within a poll, not a sync interval.
 */

export type Subscriber = {
  /** Called in id order, synchronously for all subscribers, so none sees the log differently. */
  receive(event: LoggedEvent, audience: TaskAudience | undefined): void
}

export type Broadcaster = ReturnType<typeof createBroadcaster>

/** How often the log is read for other instances' writes: well within the second docs/product-rules.md §3 allows. */
const TAIL_POLL_MS = 250
const PAGE_SIZE = 500

export function createBroadcaster(db: Database, { pollMs = TAIL_POLL_MS } = {}) {
  const subscribers = new Set<Subscriber>()
  let head: number | undefined
  let starting: Promise<number> | undefined
  let pass: Promise<void> | undefined
  let isKickedDuringPass = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopListening: (() => void) | undefined
  /** When the oldest commit of this process not yet handed on happened: where fan-out lag starts. */
  let committedAt: number | undefined

  function schedule() {
    clearTimeout(timer)
    if (subscribers.size === 0 || !stopListening) return
    timer = setTimeout(kick, pollMs)
    timer.unref()
  }

  function kick() {
    if (subscribers.size === 0 || head === undefined) return
    void read()
  }

  /** Reads the log now (or once more after the read under way); resolves when it has. */
  function read(): Promise<void> {
    if (pass) {
      isKickedDuringPass = true
      return pass
    }
    pass = (async () => {
      do {
        isKickedDuringPass = false
        try {
          await readNewEvents()
        } catch (error) {
          console.error('Reading the event log failed', error)
        }
      } while (isKickedDuringPass)
    })().finally(() => {
      pass = undefined
      schedule()
    })
    return pass
  }

  let isSyncFailing = false
  async function syncFirst() {
    try {
      await syncReplica(db)
      if (isSyncFailing) console.error('Syncing the replica works again')
      isSyncFailing = false
    } catch (error) {
      // The local copy is still there to read; the next pass tries again.
      if (!isSyncFailing) console.error('Syncing the replica failed', error)
      isSyncFailing = true
    }
  }

  async function readNewEvents() {
    await syncFirst()
    // Nobody listening: where the log ends is all there is to know. Without this a broadcaster
    // that sat idle would hand its next subscriber a stale cursor, and a client whose cursor is
    // newer would be told to reset.
    if (subscribers.size === 0) {
      head = await eventLogHead(db)
      return
    }
    for (;;) {
      // Lag counts from this process's commit when one woke the read, else from the read itself
      // (another instance's write, found by polling).
      const started = committedAt ?? performance.now()
      committedAt = undefined
      const page = await readEventsAfter(db, { after: head ?? 0, limit: PAGE_SIZE })
      if (page.length === 0) return
      const audiences = await audiencesOf(db, page)
      for (const event of page) {
        head = event.id
        const audience = audienceOf(event, audiences)
        for (const subscriber of subscribers) subscriber.receive(event, audience)
      }
      eventStreamFanOut.observe((performance.now() - started) / 1000)
      if (page.length < PAGE_SIZE) return
    }
  }

  return {
    /** Learns where the log ends and starts listening for commits; safe to call more than once. */
    start(): Promise<number> {
      starting ??= eventLogHead(db).then(
        (id) => {
          head = id
          stopListening = onCommit(() => {
            committedAt ??= performance.now()
            kick()
          })
          return id
        },
        (error: unknown) => {
          // The next subscriber tries again: the database may only have been busy.
          starting = undefined
          throw error
        },
      )
      return starting
    },
    /**
     * Adds a subscriber. It receives every event after the returned cursor, which is where the
     * log ended when it joined; what came before is the subscriber's to read (a resume).
     */
    async subscribe(subscriber: Subscriber) {
      await this.start()
      if (subscribers.size === 0) await read()
      subscribers.add(subscriber)
      if (subscribers.size === 1) schedule()
      return { cursor: head ?? 0, unsubscribe: () => subscribers.delete(subscriber) }
    },
    /**
     * Reads the log now rather than at the next poll: another process sharing the database has
     * committed (a sibling worker on this machine, server/cluster.ts).
     */
    nudge: kick,
    /**
     * Syncs a replica and reads what it brought, handing it to the subscribers; resolves with
     * where the log now ends.
     */
    async catchUp() {
      await read()
      return head ?? 0
    },
    get subscriberCount() {
      return subscribers.size
    },
    stop() {
      clearTimeout(timer)
      stopListening?.()
      stopListening = undefined
      subscribers.clear()
    },
  }
}

/** The audiences of the tasks a page of events is about, in one read. */
export function audiencesOf(db: Database, page: readonly LoggedEvent[]) {
  const taskIds = new Set<string>()
  for (const event of page) if (event.taskId && !deletedAudience(event)) taskIds.add(event.taskId)
  return readAudiences(db, [...taskIds])
}

/**
 * Who may hear of an event: its task's audience now, or, for a deletion, as it was just before
 * (the service wrote it into the event, as there is no task left to ask).
 */
export function audienceOf(event: LoggedEvent, audiences: Map<string, TaskAudience>) {
  return deletedAudience(event) ?? (event.taskId ? audiences.get(event.taskId) : undefined)
}

function deletedAudience(event: LoggedEvent) {
  return event.type === 'task-deleted' ? storedAudience(event.payload.audience) : undefined
}
