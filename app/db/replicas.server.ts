import { AsyncLocalStorage } from 'node:async_hooks'
import type { Client, InArgs, InStatement } from '@libsql/client'
import type { Database } from './client.server'

/**
 * Embedded replicas (`DATABASE_SYNC_URL`): a local file that libSQL keeps in step with the primary,
 * with writes forwarded to it. What this module adds is the position each replica has reached —
 * the primary's frame number its last sync of ours returned, the same count on every replica of
 * one primary — and the writes a request makes through one, so that a person reads their own
 * writes whichever replica answers their next request
 * (docs/decisions/037-read-your-writes-across-replicas.md). A replica that cannot sync sends
 * those requests to the primary instead (docs/decisions/051-a-failed-sync-is-not-an-error.md).
 */

type Sync = { number: number; done: Promise<number> }

type Replica = {
  client: Client
  /** The highest frame number a sync of ours returned: the replica holds at least this much. */
  position: number
  /** How many syncs of ours have started; sync n started after anything that saw `started <= n`. */
  started: number
  /** The sync under way, which concurrent callers share. */
  current: Sync | undefined
  /** Until when syncs fail at once, after one that failed (QUIET_AFTER_FAILURE_MS). */
  quietUntil: number
}

const replicas = new WeakMap<Client, Replica>()

/**
 * Whether a statement only reads. The client reports no changed rows for a write that returns
 * rows (`INSERT … RETURNING`), so statements are told apart by what they begin with: anything
 * but a `SELECT` counts as a write, which at worst costs a request that only read one sync.
 */
function isRead(statement: InStatement | [string, InArgs?]) {
  const sql =
    typeof statement === 'string' ? statement : Array.isArray(statement) ? statement[0] : statement.sql
  return /^[\s(]*select\b/i.test(sql)
}

/**
 * Registers a client opened as an embedded replica, and notes each of its writes made during
 * `withOwnWrites` (a statement or batch that is not only `SELECT`s, a committed transaction).
 */
export function registerReplica(client: Client) {
  const replica: Replica = { client, position: 0, started: 0, current: undefined, quietUntil: 0 }
  replicas.set(client, replica)
  waitForOpenTransaction(client)
  noteWritesOf(client, replica)
}

/**
 * A replica has one connection, and while a transaction of this process holds it the client
 * refuses anything else at once (`TRANSACTION_ACTIVE`): a request that read while a mention
 * e-mail or a Stripe event was being recorded failed, its session not found or a 500. So the
 * client's statements, batches, syncs and transactions wait for the transactions asked for before
 * them to end (commit, rollback or close), then run; a transaction's own statements, on its
 * object, run at once. The wait is short: a transaction reads and writes, nothing slower
 * (tests/unit/transactions-without-io.test.ts). A local file has more connections than the one
 * transaction open at a time (client.server.ts), and a libSQL server a stream per transaction:
 * neither refuses.
 */
function waitForOpenTransaction(client: Client) {
  /** The end of the last transaction asked for, until it ends. */
  let lastEnd: Promise<void> | undefined
  const noTransaction = async () => {
    while (lastEnd) await lastEnd
  }
  const execute = client.execute.bind(client)
  client.execute = (async (statement: InStatement, args?: InArgs) => {
    await noTransaction()
    return execute(statement as string, args)
  }) as Client['execute']
  const batch = client.batch.bind(client)
  client.batch = (async (...args: Parameters<typeof batch>) => {
    await noTransaction()
    return batch(...args)
  }) as Client['batch']
  const sync = client.sync.bind(client)
  client.sync = async () => {
    await noTransaction()
    return sync()
  }
  const transaction = client.transaction.bind(client)
  client.transaction = (async (...args: Parameters<typeof transaction>) => {
    const before = lastEnd
    let ended!: () => void
    const end = new Promise<void>((resolve) => {
      ended = resolve
    })
    lastEnd = end
    const done = () => {
      if (lastEnd === end) lastEnd = undefined
      ended()
    }
    await before
    try {
      const tx = await transaction(...args)
      for (const name of ['commit', 'rollback'] as const) {
        const settle = tx[name].bind(tx)
        tx[name] = () => settle().finally(done)
      }
      const close = tx.close.bind(tx)
      tx.close = () => {
        try {
          close()
        } finally {
          done()
        }
      }
      return tx
    } catch (error) {
      done()
      throw error
    }
  }) as Client['transaction']
}

/**
 * Registers a client of a replica's primary, which the requests that could not catch up read from
 * (`readFromPrimary`). It counts as that replica: its writes are a request's own writes, whose
 * position a sync of the replica started after them gives, and it syncs, catches up and knows
 * its position through the replica.
 */
export function registerPrimaryOf(replicaClient: Client, primaryClient: Client) {
  const replica = replicas.get(replicaClient)
  if (!replica) return
  replicas.set(primaryClient, replica)
  noteWritesOf(primaryClient, replica)
}

function noteWritesOf(client: Client, replica: Replica) {
  const noteWrite = () => {
    const request = ownWrites.getStore()
    if (request) request.syncsBeforeLastWrite = replica.started
  }
  const execute = client.execute.bind(client)
  client.execute = (async (statement: InStatement, args?: InArgs) => {
    const result = await execute(statement as string, args)
    if (!isRead(statement)) noteWrite()
    return result
  }) as Client['execute']
  const batch = client.batch.bind(client)
  client.batch = (async (...args: Parameters<typeof batch>) => {
    const results = await batch(...args)
    if (!args[0].every(isRead)) noteWrite()
    return results
  }) as Client['batch']
  const transaction = client.transaction.bind(client)
  client.transaction = (async (...args: Parameters<typeof transaction>) => {
    const tx = await transaction(...args)
    const commit = tx.commit.bind(tx)
    tx.commit = async () => {
      await commit()
      noteWrite()
    }
    return tx
  }) as Client['transaction']
}

/** Whether the database is an embedded replica (DATABASE_SYNC_URL). */
export function isReplica(db: Database) {
  return replicas.has(db.$client)
}

/** The pauses before a failed sync is tried again: three tries at most. */
const SYNC_RETRY_PAUSES_MS = [50, 200]
/**
 * No try starts this long after the first: a try that fails slowly is a primary that is down,
 * and each one blocks the thread for its whole length (below).
 */
const SYNC_RETRIES_WITHIN_MS = 1_000

/**
 * A sync that fails once fails for a moment (a connection reset, the primary busy): it is tried
 * again after a short pause, as long as the tries so far failed fast
 * (docs/decisions/051-a-failed-sync-is-not-an-error.md).
 */
async function syncWithRetries(client: Client) {
  const started = Date.now()
  for (const pause of SYNC_RETRY_PAUSES_MS) {
    try {
      return await client.sync()
    } catch (error) {
      if (Date.now() - started + pause >= SYNC_RETRIES_WITHIN_MS) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
  return client.sync()
}

/**
 * The driver's sync blocks the thread until it is done, and with the primary down that is until
 * libSQL gives up (about 3 s, measured). After a sync that failed all its tries the next ones fail
 * at once for this long, so a primary that is down costs an instance one such pause per period,
 * not one per request. Meanwhile a request that needs a sync reads from the primary instead
 * (`readFromPrimary`), and the others read the replica's copy.
 */
const QUIET_AFTER_FAILURE_MS = 5_000

function startSync(replica: Replica): Sync {
  const done =
    Date.now() < replica.quietUntil
      ? Promise.reject(new Error('The primary did not answer a sync moments ago; not asked again yet'))
      : syncWithRetries(replica.client).then(
          (replicated) => {
            const position = replicated?.frame_no ?? 0
            if (position > replica.position) replica.position = position
            return position
          },
          (error: unknown) => {
            replica.quietUntil = Date.now() + QUIET_AFTER_FAILURE_MS
            throw error
          },
        )
  const sync: Sync = { number: replica.started++, done }
  replica.current = sync
  const forget = () => {
    if (replica.current === sync) replica.current = undefined
  }
  done.then(forget, forget)
  return sync
}

/** The sync under way if it started as sync `from` or later, else a new one. */
function syncStartedFrom(replica: Replica, from: number): Sync {
  const current = replica.current
  return current && current.number >= from ? current : startSync(replica)
}

/**
 * Pulls the primary's newest changes into an embedded replica now, rather than at its next
 * periodic sync. Returns false for a database that is not a replica; throws when the primary
 * cannot be reached.
 */
export async function syncReplica(db: Database): Promise<boolean> {
  const replica = replicas.get(db.$client)
  if (!replica) return false
  await startSync(replica).done
  return true
}

/**
 * Syncs a replica for a read that found nothing and may be looking for another instance's
 * fresh write. Concurrent callers share one sync, so a flood of such reads costs one request to
 * the primary at a time. Resolves false for a database that is not a replica or a failed sync.
 */
export function syncReplicaForMiss(db: Database): Promise<boolean> {
  const replica = replicas.get(db.$client)
  if (!replica) return Promise.resolve(false)
  return (replica.current ?? startSync(replica)).done.then(
    () => true,
    () => false,
  )
}

export type CatchUp = 'reached' | 'beyond-primary' | 'unknown'

/**
 * Brings a replica up to `position`, a frame number of its primary, before a request reads.
 * Nothing to do (no request to the primary) when a sync of ours already reached it. Otherwise it
 * shares the sync under way, and starts at most one more if that one had started before this
 * call and fell short. `'beyond-primary'`: a sync started after this call returned less, so the
 * primary never reached the position (made up, or from another database); `'unknown'`: the
 * sync failed, and the replica cannot say whether it holds the position.
 */
export async function catchUpTo(db: Database, position: number): Promise<CatchUp> {
  const replica = replicas.get(db.$client)
  if (!replica || replica.position >= position) return 'reached'
  const arrived = replica.started
  let sync = replica.current ?? startSync(replica)
  for (;;) {
    const reached = await sync.done.catch(() => undefined)
    if (reached === undefined) return 'unknown'
    if (reached >= position) return 'reached'
    if (sync.number >= arrived) return 'beyond-primary'
    sync = syncStartedFrom(replica, arrived)
  }
}

const requests = new AsyncLocalStorage<{ readsFromPrimary: boolean }>()

/**
 * Runs one request on a replica with room to note that it reads from the primary: a step every
 * request passes on an embedded replica (server/app.ts).
 */
export function servingRequest<T>(run: () => T): T {
  return requests.run({ readsFromPrimary: false }, run)
}

/**
 * Sends the rest of the request in hand to the primary, for a replica that cannot bring the
 * person's own writes (its sync failed): `database()` answers the primary from here on.
 */
export function readFromPrimary() {
  const request = requests.getStore()
  if (!request) throw new Error('A request on a replica runs inside servingRequest')
  request.readsFromPrimary = true
}

/** Whether the request in hand reads from the primary (`readFromPrimary`). */
export function readsFromPrimary(): boolean {
  return requests.getStore()?.readsFromPrimary === true
}

const ownWrites = new AsyncLocalStorage<{ syncsBeforeLastWrite: number | undefined }>()

/**
 * Runs a request's work on a replica, noting whether it wrote through it; `position` is then the
 * primary's frame number after its last write (from a sync started after that write, shared
 * with concurrent requests), or `'unknown'` when that sync failed; undefined when it wrote
 * nothing or is not on a replica.
 */
export async function withOwnWrites<T>(
  db: Database,
  run: () => Promise<T>,
): Promise<{ result: T; position?: number | 'unknown' }> {
  const replica = replicas.get(db.$client)
  if (!replica) return { result: await run() }
  const request = { syncsBeforeLastWrite: undefined as number | undefined }
  const result = await ownWrites.run(request, run)
  if (request.syncsBeforeLastWrite === undefined) return { result }
  const sync = syncStartedFrom(replica, request.syncsBeforeLastWrite)
  return { result, position: await sync.done.catch(() => 'unknown' as const) }
}

/**
 * The position a sync started now reaches: it holds every write committed before this call, one
 * whose own position is unknown included. Undefined when that sync failed (or no replica).
 */
export function positionFromNow(db: Database): Promise<number | undefined> {
  const replica = replicas.get(db.$client)
  if (!replica) return Promise.resolve(undefined)
  return startSync(replica).done.catch(() => undefined)
}
