import { type IntMode, LibsqlError } from '@libsql/client'
import Database from 'libsql'
import { LRUCache } from 'lru-cache'
import { mapSqliteError } from './errors.server'

/**
 * The native client's connections: each opened with the app's pragmas and keeping the statements
 * compiled on it, with their column names read once; and the pool that lends them out.
 */

export type NativeClientOptions = {
  /** The database file. */
  path: string
  /** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
  busyTimeoutMs: number
  /** `PRAGMA synchronous` on every connection (the file is in WAL mode). */
  synchronous: 'NORMAL' | 'FULL'
  intMode?: IntMode
  /** Connections at most, as `@libsql/client`'s `concurrency` (20 there too). */
  maxConnections?: number
  /** Compiled statements kept per connection, least recently used dropped first. */
  statementsPerConnection?: number
}

const DEFAULT_MAX_CONNECTIONS = 20
const DEFAULT_STATEMENTS_PER_CONNECTION = 300

type CompiledStatement = {
  native: Database.Statement
  /** Null for a statement that returns no rows (it is `run`, not read). */
  columns: string[] | null
  columnTypes: string[]
  /**
   * The columns whose names a row carries (the first of each name), when the names can be plain
   * assignments (rowByAssignment); null when one looks like an index or is `length` or `__proto__`.
   */
  namedColumns: number[] | null
}

/** How much of the file each connection maps into memory (`PRAGMA mmap_size`). */
const MMAP_BYTES = 1024 * 1024 * 1024

/** One native connection, its pragmas set, and the statements compiled on it. */
export class Connection {
  readonly native: Database.Database
  /** Least recently used dropped first. */
  readonly #statements: LRUCache<string, CompiledStatement>

  constructor(options: NativeClientOptions) {
    this.native = new Database(options.path, { timeout: options.busyTimeoutMs })
    this.#statements = new LRUCache({
      max: options.statementsPerConnection ?? DEFAULT_STATEMENTS_PER_CONNECTION,
    })
    try {
      // WAL lets readers run beside the writer (a no-op once the file is in WAL: it is stored in
      // it). In WAL mode NORMAL syncs at checkpoints, not at each commit: a crash of the process
      // loses nothing committed; a power cut may lose the last commits, never the file.
      // Reads go through memory-mapped pages shared by every connection of every process, instead
      // of a read() into each connection's own 2 MB page cache: a lookup that misses that cache
      // (search joining thousands of matches to their tasks, a dashboard over a big account) costs
      // a memory access, not a system call. Address space only; the kernel's page cache holds it.
      this.native.exec(
        `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.synchronous}; PRAGMA foreign_keys = ON; PRAGMA mmap_size = ${MMAP_BYTES}`,
      )
    } catch (error) {
      this.native.close()
      throw mapSqliteError(error)
    }
  }

  /** The statement compiled for `sql`, compiling it on first use. */
  statement(sql: string): CompiledStatement {
    let compiled = this.#statements.get(sql)
    if (!compiled) {
      compiled = compile(this.native, sql)
      this.#statements.set(sql, compiled)
    }
    return compiled
  }

  /**
   * A schema change can change what a kept statement returns (a `SELECT *` after a column was
   * added): SQLite recompiles such a statement itself, but the column names read from it would
   * be the old ones, so they are read again.
   */
  forgetStatements() {
    this.#statements.clear()
  }

  get statementCount() {
    return this.#statements.size
  }
}

function compile(native: Database.Database, sql: string): CompiledStatement {
  const statement = native.prepare(sql)
  statement.safeIntegers(true)
  try {
    // As the original decides: raw() refuses a statement that returns no data.
    statement.raw(true)
  } catch {
    return { native: statement, columns: null, columnTypes: [], namedColumns: null }
  }
  return describeColumns({ native: statement, columns: [], columnTypes: [], namedColumns: null })
}

export function describeColumns(compiled: CompiledStatement): CompiledStatement {
  const described = compiled.native.columns()
  compiled.columns = described.map((column) => column.name)
  compiled.columnTypes = described.map((column) => column.type ?? '')
  const columns = compiled.columns
  const areAssignable = columns.every(
    (name) => name !== 'length' && name !== '__proto__' && !/^(0|[1-9]\d*)$/.test(name),
  )
  compiled.namedColumns = areAssignable
    ? columns.flatMap((name, index) => (columns.indexOf(name) === index ? [index] : []))
    : null
  return compiled
}

/**
 * The connections of one client. Every statement runs synchronously from borrow to release, so
 * only a transaction holds a connection across an `await`; when transactions hold all of them,
 * the call fails as the original's does (waiting would wait for the caller itself).
 */
export class ConnectionPool {
  readonly #options: NativeClientOptions
  readonly #maxConnections: number
  #idle: Connection[] = []
  readonly #borrowed = new Set<Connection>()
  #closed = false

  constructor(options: NativeClientOptions) {
    this.#options = options
    this.#maxConnections = Math.max(1, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS)
  }

  acquire(): Connection {
    if (this.#closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED')
    const connection = this.#idle.pop() ?? this.#open()
    this.#borrowed.add(connection)
    return connection
  }

  #open() {
    if (this.#borrowed.size >= this.#maxConnections) {
      throw new LibsqlError(
        `All ${this.#maxConnections} of this client's connections are held by open transactions. ` +
          'Commit or roll back one before using the client again, or raise `concurrency`.',
        'TRANSACTION_ACTIVE',
      )
    }
    return new Connection(this.#options)
  }

  /** Takes a connection back, rolling back a transaction left open on it. */
  release(connection: Connection) {
    this.#borrowed.delete(connection)
    const { native } = connection
    if (native.open && native.inTransaction) {
      try {
        native.exec('ROLLBACK')
      } catch {
        // unusable: drop it rather than hand it to the next borrower mid-transaction
        closeQuietly(native)
        return
      }
    }
    if (this.#closed || !native.open) closeQuietly(native)
    else this.#idle.push(connection)
  }

  /** After a schema change on any connection, every connection reads its columns again. */
  forgetStatements() {
    for (const connection of [...this.#idle, ...this.#borrowed]) connection.forgetStatements()
  }

  get statementCounts() {
    return [...this.#idle, ...this.#borrowed].map((connection) => connection.statementCount)
  }

  close() {
    this.#closed = true
    for (const connection of [...this.#idle, ...this.#borrowed]) closeQuietly(connection.native)
    this.#idle = []
    this.#borrowed.clear()
  }

  reopen() {
    this.close()
    this.#closed = false
  }
}

function closeQuietly(native: Database.Database) {
  try {
    if (native.open) native.close()
  } catch {
    // nothing useful to do while tearing down
  }
}
