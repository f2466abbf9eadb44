import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Client, createClient } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { env } from '~/env.server'
import { createNativeClient } from './native-client.server'
import { observeStatements } from './observed.server'
import { readsFromPrimary, registerPrimaryOf, registerReplica } from './replicas.server'
import * as schema from './schema'

export type Database = LibSQLDatabase<typeof schema> & { $client: Client }
/** An open transaction on the database: what `commitAfterReading` (app/db/write.server.ts) hands its work. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]
/** The database or an open transaction on it: what a read takes when it can run inside either. */
export type Executor = Database | Transaction

export type DatabaseConfig = {
  url: string
  authToken?: string
  syncUrl?: string
  /** How often an embedded replica pulls the primary's changes on its own, in seconds. */
  syncIntervalSeconds?: number
  /** `PRAGMA synchronous` of a local file's connections; NORMAL unless told otherwise. */
  synchronous?: 'NORMAL' | 'FULL'
}

/** Busy timeout for local files: writers from other connections queue instead of failing. */
const BUSY_TIMEOUT_MS = 5_000
/**
 * The longest one request to a libSQL server may take. A server that is down refuses at once;
 * one that is unreachable would otherwise hold the request until the operating system gives up
 * (minutes), and the page with it. Past this the query fails and the request answers 503.
 */
const REMOTE_TIMEOUT_MS = 5_000

/**
 * Opens a database. `file:` URLs are embedded SQLite files (the folder is created if missing),
 * served by our client over the native driver, which keeps each connection's compiled statements
 * and sets its pragmas (native-client.server.ts); `libsql:`/`http:` URLs reach a libSQL server and
 * a `syncUrl` makes the file an embedded replica, both through `@libsql/client`.
 */
export function openDatabase(config: DatabaseConfig): Database {
  const filePath = localFilePath(config.url)
  if (filePath) mkdirSync(dirname(filePath), { recursive: true })
  const client =
    filePath && isPlainFileUrl(config.url) && !config.syncUrl
      ? openFile(filePath, config)
      : openClient(config)
  if (config.syncUrl) registerReplica(client)
  const db = announceCommits(drizzle(observeStatements(sendOneStatementAlone(client)), { schema }))
  // A replica's writes go to the primary, but through the same synchronous driver as a file:
  // they block the thread for the round trip, so they take turns like a file's.
  return filePath || config.url.startsWith('file:') ? takeTurnsToWrite(db) : db
}

function openFile(filePath: string, config: DatabaseConfig): Client {
  return createNativeClient({
    path: filePath,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    synchronous: config.synchronous ?? 'NORMAL',
  })
}

function openClient(config: DatabaseConfig): Client {
  return createClient({
    url: config.url,
    authToken: config.authToken,
    syncUrl: config.syncUrl,
    syncInterval: config.syncUrl ? config.syncIntervalSeconds : undefined,
    // A replica's own writes go to the primary and are read back from it at once; another
    // replica (a sibling worker, another instance) catches up with a person's writes when their
    // next request reaches it (replicas.server.ts), anyone else's arrive with the next sync.
    readYourWrites: true,
    timeout: BUSY_TIMEOUT_MS,
    fetch: boundedFetch,
  })
}

/** The HTTP client's fetch, with every request bounded by REMOTE_TIMEOUT_MS. */
function boundedFetch(request: Request) {
  return fetch(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(REMOTE_TIMEOUT_MS)]) })
}

/**
 * A write batch of one statement is sent as that statement alone: SQLite runs a statement outside
 * a transaction as a transaction of its own, so it is as atomic, and it skips the `BEGIN` and
 * `COMMIT` around it, which on an embedded replica are each a statement forwarded to the primary.
 * So a single write through `commit` costs what the bare statement would, and still takes its
 * turn and is announced like any commit (below).
 */
function sendOneStatementAlone(client: Client): Client {
  const batch = client.batch.bind(client)
  const execute = client.execute.bind(client)
  client.batch = (async (statements, mode) => {
    const [only] = statements
    if (statements.length !== 1 || mode !== 'write' || !only) return batch(statements, mode)
    return [await execute(Array.isArray(only) ? { sql: only[0], args: only[1] ?? [] } : only)]
  }) as Client['batch']
  return client
}

const commitListeners = new Set<() => void>()

/**
 * Calls `listener` after each transaction of this process commits, so event streams read a new
 * event at once instead of on their next poll. Returns the function that stops it.
 */
export function onCommit(listener: () => void) {
  commitListeners.add(listener)
  return () => commitListeners.delete(listener)
}

function announceCommits(db: Database): Database {
  const transaction = db.transaction.bind(db)
  db.transaction = (async (run, config) => {
    const result = await transaction(run, config)
    for (const listener of commitListeners) listener()
    return result
  }) as Database['transaction']
  // The client's own batch, which `commit` (app/db/write.server.ts) and drizzle's `db.batch` both use.
  const batch = db.$client.batch.bind(db.$client)
  db.$client.batch = (async (statements, mode) => {
    const result = await batch(statements, mode)
    for (const listener of commitListeners) listener()
    return result
  }) as Client['batch']
  return db
}

/**
 * SQLite has one writer at a time, and the embedded driver waits for the write lock
 * synchronously (its busy timeout blocks the thread). Two write transactions interleaved on one
 * event loop would deadlock: the second's BEGIN blocks the very thread the first needs to commit,
 * until the timeout fails it. So the write transactions of one process take turns in a queue,
 * which costs one microtask when nobody else is writing. Inside a transaction, use its `tx`
 * (never `db.transaction` again): a nested call would wait for itself.
 */
function takeTurnsToWrite(db: Database): Database {
  let queue: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(write: () => Promise<T>): Promise<T> => {
    const turn = queue.then(write)
    queue = turn.catch(() => undefined)
    return turn
  }
  const transaction = db.transaction.bind(db)
  db.transaction = ((run, config) => inTurn(() => transaction(run, config))) as Database['transaction']
  // A batch runs start to end without yielding, but on a connection of its own: while a
  // transaction of this process holds the lock, its first write would block the thread too.
  const batch = db.$client.batch.bind(db.$client)
  db.$client.batch = ((statements, mode) => inTurn(() => batch(statements, mode))) as Client['batch']
  return db
}

/**
 * `file:` and a path, with no authority, query or escapes for `@libsql/client` to interpret (it
 * keeps those rarer forms).
 */
function isPlainFileUrl(url: string) {
  return /^file:(?!\/\/)[^?#%]+$/.test(url)
}

/** The file behind a `file:` URL, or undefined for remote and in-memory databases. */
function localFilePath(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined
  const path = url.slice('file:'.length).split('?')[0] ?? ''
  return path === '' || path === ':memory:' ? undefined : path
}

let instance: Database | undefined
/** An embedded replica's primary, opened when a request first has to read from it. */
let primary: Database | undefined

/**
 * The app's database, opened on first use from `DATABASE_URL`. On an embedded replica, a request
 * whose replica could not catch up with the person's own writes gets the primary instead
 * (replicas.server.ts, docs/decisions/051-a-failed-sync-is-not-an-error.md).
 */
export function database(): Database {
  const e = env()
  if (!instance) {
    instance = openDatabase({
      url: e.DATABASE_URL,
      authToken: e.DATABASE_AUTH_TOKEN,
      syncUrl: e.DATABASE_SYNC_URL,
      syncIntervalSeconds: e.DATABASE_SYNC_INTERVAL_SECONDS,
      synchronous: e.DATABASE_SYNCHRONOUS,
    })
  }
  if (!e.DATABASE_SYNC_URL || !readsFromPrimary()) return instance
  if (!primary) {
    primary = openDatabase({ url: e.DATABASE_SYNC_URL, authToken: e.DATABASE_AUTH_TOKEN })
    registerPrimaryOf(instance.$client, primary.$client)
  }
  return primary
}

/**
 * `db` as the request in hand reads it: the primary instead when `db` is the app's replica and the
 * request reads from the primary (`database()`), for code handed the database once at start.
 */
export function asReadByThisRequest(db: Database): Database {
  return db === instance ? database() : db
}

export function closeDatabase() {
  instance?.$client.close()
  primary?.$client.close()
  instance = undefined
  primary = undefined
}
