import {
  type Client,
  type InArgs,
  type InStatement,
  type IntMode,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from '@libsql/client'
import { type Connection, ConnectionPool, type NativeClientOptions } from './native-client/connections.server'
import {
  asBatchError,
  beginStatement,
  executeInTransaction,
  executeMultiple,
  executeStatement,
} from './native-client/statements.server'

/**
 * `@libsql/client`'s `Client` for an embedded file, over the native `libsql` driver it is built
 * on, with two differences (docs/decisions/030-native-statements-and-synchronous-normal.md):
 *
 * - each connection keeps its compiled statements, keyed by their SQL, with their column names
 *   read once. The original compiles the statement and reads its columns on every `execute`,
 *   which cost more than the query itself for the app's hot reads.
 * - each connection is opened with the pragmas the app needs, `synchronous` among them, which
 *   the original's pool has no hook for.
 *
 * Everything a caller sees is the original's: the same `ResultSet` (rows, ints per `intMode`,
 * BLOBs as ArrayBuffer), the same `LibsqlError`/`LibsqlBatchError` codes, the same pool rules
 * (a transaction holds its connection; when transactions hold them all, the next call fails).
 * `app/db/native-client.server.test.ts` runs the same behaviours against both clients. The
 * connections and their pool, running statements and building results, and the translation of
 * the driver's errors are in `app/db/native-client/`.
 */

export type { NativeClientOptions }

/** Opens the client; like `createClient`, it fails at once if the file cannot be opened. */
export function createNativeClient(options: NativeClientOptions): NativeClient {
  const pool = new ConnectionPool(options)
  pool.release(pool.acquire())
  return new NativeClient(pool, options.intMode ?? 'number')
}

export class NativeClient implements Client {
  readonly #pool: ConnectionPool
  readonly #intMode: IntMode
  closed = false
  readonly protocol = 'file'

  /** @private use createNativeClient */
  constructor(pool: ConnectionPool, intMode: IntMode) {
    this.#pool = pool
    this.#intMode = intMode
  }

  execute(stmt: InStatement): Promise<ResultSet>
  execute(sql: string, args?: InArgs): Promise<ResultSet>
  async execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql
    return this.#withConnection((connection) => executeStatement(connection, stmt, this.#intMode, this.#pool))
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = 'deferred') {
    return this.#withConnection((connection) => {
      executeStatement(connection, beginStatement(mode), this.#intMode, this.#pool)
      const results = executeInTransaction(connection, stmts, this.#intMode, this.#pool)
      executeStatement(connection, 'COMMIT', this.#intMode, this.#pool)
      return results
    })
  }

  async migrate(stmts: InStatement[]) {
    return this.#withConnection((connection) => {
      executeStatement(connection, 'PRAGMA foreign_keys=off', this.#intMode, this.#pool)
      try {
        executeStatement(connection, beginStatement('deferred'), this.#intMode, this.#pool)
        const results = executeInTransaction(connection, stmts, this.#intMode, this.#pool)
        executeStatement(connection, 'COMMIT', this.#intMode, this.#pool)
        return results
      } finally {
        if (connection.native.inTransaction)
          executeStatement(connection, 'ROLLBACK', this.#intMode, this.#pool)
        executeStatement(connection, 'PRAGMA foreign_keys=on', this.#intMode, this.#pool)
        this.#pool.forgetStatements()
      }
    })
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    this.#checkNotClosed()
    const connection = this.#pool.acquire()
    try {
      this.#checkUsable(connection)
      executeStatement(connection, beginStatement(mode), this.#intMode, this.#pool)
    } catch (error) {
      this.#pool.release(connection)
      throw error
    }
    return new NativeTransaction(connection, this.#intMode, this.#pool)
  }

  async executeMultiple(sql: string) {
    return this.#withConnection((connection) => executeMultiple(connection, sql, this.#pool))
  }

  async sync(): Promise<Replicated> {
    return this.#withConnection((connection) => {
      // The original asks the native driver, which refuses for a file that is not a replica.
      const report = connection.native.sync() as { frames_synced: number; frame_no: number }
      return { frames_synced: report.frames_synced, frame_no: report.frame_no }
    })
  }

  reconnect() {
    this.#pool.reopen()
    this.closed = false
  }

  close() {
    this.closed = true
    this.#pool.close()
  }

  /** Compiled statements kept on each open connection (tests and diagnostics). */
  statementCounts(): number[] {
    return this.#pool.statementCounts
  }

  /** Borrows a connection for one synchronous piece of work; a transaction left open is rolled back. */
  #withConnection<T>(work: (connection: Connection) => T): T {
    this.#checkNotClosed()
    const connection = this.#pool.acquire()
    try {
      this.#checkUsable(connection)
      return work(connection)
    } finally {
      this.#pool.release(connection)
    }
  }

  #checkNotClosed() {
    if (this.closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED')
  }

  #checkUsable(connection: Connection) {
    this.#checkNotClosed()
    if (!connection.native.open) {
      throw new LibsqlError('The connection was closed while this operation was in flight', 'CLIENT_CLOSED')
    }
  }
}

class NativeTransaction implements Transaction {
  /** Null once the connection went back to the pool. */
  #connection: Connection | null
  readonly #intMode: IntMode
  readonly #pool: ConnectionPool

  constructor(connection: Connection, intMode: IntMode, pool: ConnectionPool) {
    this.#connection = connection
    this.#intMode = intMode
    this.#pool = pool
  }

  async execute(stmt: InStatement) {
    return executeStatement(this.#usableConnection(), stmt, this.#intMode, this.#pool)
  }

  async batch(stmts: InStatement[]) {
    return stmts.map((stmt, index) =>
      asBatchError(index, () => executeStatement(this.#usableConnection(), stmt, this.#intMode, this.#pool)),
    )
  }

  async executeMultiple(sql: string) {
    executeMultiple(this.#usableConnection(), sql, this.#pool)
  }

  async rollback() {
    const connection = this.#connection
    if (connection === null || !connection.native.open) {
      this.#settle()
      return
    }
    try {
      this.#checkNotClosed()
      executeStatement(connection, 'ROLLBACK', this.#intMode, this.#pool)
    } finally {
      this.#settle()
    }
  }

  async commit() {
    try {
      executeStatement(this.#usableConnection(), 'COMMIT', this.#intMode, this.#pool)
    } finally {
      this.#settle()
    }
  }

  close() {
    const connection = this.#connection
    if (connection === null) return
    try {
      // Reading `inTransaction` on a connection `client.close()` closed would abort the process.
      if (connection.native.open && connection.native.inTransaction) {
        executeStatement(connection, 'ROLLBACK', this.#intMode, this.#pool)
      }
    } finally {
      this.#settle()
    }
  }

  get closed() {
    const connection = this.#connection
    if (connection === null || !connection.native.open) return true
    return !connection.native.inTransaction
  }

  /** Gives the connection back; safe to call from every exit path. */
  #settle() {
    const connection = this.#connection
    if (connection === null) return
    this.#connection = null
    this.#pool.release(connection)
  }

  #usableConnection(): Connection {
    this.#checkNotClosed()
    return this.#connection as Connection
  }

  #checkNotClosed() {
    if (this.closed) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
  }
}
