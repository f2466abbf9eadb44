import {
  type Client,
  type InArgs,
  type InStatement,
  type IntMode,
  type InValue,
  LibsqlBatchError,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Row,
  type Transaction,
  type TransactionMode,
  type Value,
} from '@libsql/client'
import Database from 'libsql'
import { LRUCache } from 'lru-cache'

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
 * `app/db/native-client.server.test.ts` runs the same behaviours against both clients.
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

/** Opens the client; like `createClient`, it fails at once if the file cannot be opened. */
export function createNativeClient(options: NativeClientOptions): NativeClient {
  const pool = new ConnectionPool(options)
  pool.release(pool.acquire())
  return new NativeClient(pool, options.intMode ?? 'number')
}

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

/** One native connection, its pragmas set, and the statements compiled on it. */
class Connection {
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
      this.native.exec(
        `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.synchronous}; PRAGMA foreign_keys = ON`,
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

function describeColumns(compiled: CompiledStatement): CompiledStatement {
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
class ConnectionPool {
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

/** Statements of a batch or migration, inside the transaction already begun on `connection`. */
function executeInTransaction(
  connection: Connection,
  stmts: Array<InStatement | [string, InArgs?]>,
  intMode: IntMode,
  pool: ConnectionPool,
): ResultSet[] {
  return stmts.map((stmt, index) =>
    asBatchError(index, () => {
      if (!connection.native.inTransaction) {
        throw new LibsqlBatchError('The transaction has been rolled back', index, 'TRANSACTION_CLOSED')
      }
      const normalized = Array.isArray(stmt) ? { sql: stmt[0], args: stmt[1] ?? [] } : stmt
      return executeStatement(connection, normalized, intMode, pool)
    }),
  )
}

/** Runs one statement of a batch, reporting a failure with the statement's index. */
function asBatchError<T>(index: number, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof LibsqlError && !(error instanceof LibsqlBatchError)) {
      throw new LibsqlBatchError(
        error.message,
        index,
        error.code,
        error.extendedCode,
        error.rawCode,
        error.cause instanceof Error ? error.cause : undefined,
      )
    }
    throw error
  }
}

function beginStatement(mode: TransactionMode) {
  switch (mode) {
    case 'write':
      return 'BEGIN IMMEDIATE'
    case 'read':
      return 'BEGIN TRANSACTION READONLY'
    case 'deferred':
      return 'BEGIN DEFERRED'
    default:
      throw new RangeError('Unknown transaction mode, supported values are "write", "read" and "deferred"')
  }
}

/** A statement that can change a table's columns, after which kept statements read theirs again. */
const CHANGES_SCHEMA = /^\s*(CREATE|ALTER|DROP)\b/i

function executeStatement(
  connection: Connection,
  stmt: InStatement,
  intMode: IntMode,
  pool: ConnectionPool,
): ResultSet {
  const sql = typeof stmt === 'string' ? stmt : stmt.sql
  const args = typeof stmt === 'string' ? [] : argsToSql(stmt.args ?? [], intMode)
  try {
    const compiled = connection.statement(sql)
    if (compiled.columns === null) {
      const info = compiled.native.run(args)
      if (CHANGES_SCHEMA.test(sql)) pool.forgetStatements()
      return new NativeResultSet([], [], [], info.changes, BigInt(info.lastInsertRowid))
    }
    const values = compiled.native.all(args) as unknown[][]
    // Another process's schema change recompiles the statement inside SQLite: a `SELECT *` then
    // returns more or fewer columns than were read, and they are read again.
    if (values[0] && values[0].length !== compiled.columns.length) describeColumns(compiled)
    const columns = compiled.columns as string[]
    const named = compiled.namedColumns
    const rows = values.map((row) =>
      named ? rowByAssignment(row, columns, named, intMode) : rowFromSql(row, columns, intMode),
    )
    return new NativeResultSet(columns.slice(), compiled.columnTypes.slice(), rows, 0, undefined)
  } catch (error) {
    throw mapSqliteError(error)
  }
}

function executeMultiple(connection: Connection, sql: string, pool: ConnectionPool) {
  try {
    connection.native.exec(sql)
  } catch (error) {
    throw mapSqliteError(error)
  } finally {
    pool.forgetStatements()
  }
}

/** The original's result: the same fields, and `toJSON` with ints and BLOBs as strings. */
class NativeResultSet implements ResultSet {
  constructor(
    public columns: string[],
    public columnTypes: string[],
    public rows: Row[],
    public rowsAffected: number,
    public lastInsertRowid: bigint | undefined,
  ) {}

  toJSON() {
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows.map((row) => Array.prototype.map.call(row, valueToJson)),
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid !== undefined ? `${this.lastInsertRowid}` : null,
    }
  }
}

function valueToJson(value: Value) {
  if (typeof value === 'bigint') return `${value}`
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64')
  return value
}

/**
 * A row as the original builds it: values by index and `length`, not enumerable; by column name,
 * enumerable, the first of two columns with one name winning.
 */
function rowFromSql(values: unknown[], columns: string[], intMode: IntMode): Row {
  const row = {}
  Object.defineProperty(row, 'length', { value: values.length })
  for (let i = 0; i < values.length; ++i) {
    const value = valueFromSql(values[i], intMode)
    Object.defineProperty(row, i, { value })
    const column = columns[i] as string
    if (!Object.hasOwn(row, column)) {
      Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true })
    }
  }
  return row as Row
}

/**
 * The same row, built faster when no name looks like an index or is `length` or `__proto__`: the
 * names (the first of each) are then plain assignments, which make the same enumerable
 * properties in the same order as defining each one.
 */
function rowByAssignment(values: unknown[], columns: string[], named: number[], intMode: IntMode): Row {
  const row: Record<string, Value> = {}
  Object.defineProperty(row, 'length', { value: values.length })
  for (let i = 0; i < values.length; ++i) {
    values[i] = valueFromSql(values[i], intMode)
    Object.defineProperty(row, i, { value: values[i] })
  }
  for (const i of named) row[columns[i] as string] = values[i] as Value
  return row as Row
}

const MIN_SAFE_BIGINT = BigInt(Number.MIN_SAFE_INTEGER)
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_INTEGER = -9223372036854775808n
const MAX_INTEGER = 9223372036854775807n

function valueFromSql(value: unknown, intMode: IntMode): Value {
  if (typeof value === 'bigint') {
    if (intMode === 'number') {
      if (value < MIN_SAFE_BIGINT || value > MAX_SAFE_BIGINT) {
        throw new RangeError('Received integer which cannot be safely represented as a JavaScript number')
      }
      return Number(value)
    }
    if (intMode === 'bigint') return value
    if (intMode === 'string') return `${value}`
    throw new Error('Invalid value for IntMode')
  }
  if (value instanceof Buffer) return value.buffer as ArrayBuffer
  return value as Value
}

function argsToSql(args: InArgs, intMode: IntMode): unknown[] | Record<string, unknown> {
  if (Array.isArray(args)) return args.map((value) => valueToSql(value, intMode))
  const named: Record<string, unknown> = {}
  for (const name in args) {
    const bare = name[0] === '@' || name[0] === '$' || name[0] === ':' ? name.substring(1) : name
    named[bare] = valueToSql(args[name] as InValue, intMode)
  }
  return named
}

function valueToSql(value: InValue, intMode: IntMode): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments')
    }
    return value
  }
  if (typeof value === 'bigint') {
    if (value < MIN_INTEGER || value > MAX_INTEGER) {
      throw new RangeError('bigint is too large to be represented as a 64-bit integer and passed as argument')
    }
    return value
  }
  if (typeof value === 'boolean') {
    if (intMode === 'bigint') return value ? 1n : 0n
    if (intMode === 'string') return value ? '1' : '0'
    return value ? 1 : 0
  }
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  if (value instanceof Date) return value.valueOf()
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database')
  return value
}

/** The original's translation of a native error: its base code, extended code and number. */
function mapSqliteError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const rawCode = error.rawCode
    const code = rawCode === undefined ? 'SQLITE_UNKNOWN' : baseCodeName(rawCode & 0xff)
    return new LibsqlError(error.message, code, error.code, rawCode, error)
  }
  return error
}

const BASE_CODES = [
  'SQLITE_OK',
  'SQLITE_ERROR',
  'SQLITE_INTERNAL',
  'SQLITE_PERM',
  'SQLITE_ABORT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOMEM',
  'SQLITE_READONLY',
  'SQLITE_INTERRUPT',
  'SQLITE_IOERR',
  'SQLITE_CORRUPT',
  'SQLITE_NOTFOUND',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_EMPTY',
  'SQLITE_SCHEMA',
  'SQLITE_TOOBIG',
  'SQLITE_CONSTRAINT',
  'SQLITE_MISMATCH',
  'SQLITE_MISUSE',
  'SQLITE_NOLFS',
  'SQLITE_AUTH',
  'SQLITE_FORMAT',
  'SQLITE_RANGE',
  'SQLITE_NOTADB',
  'SQLITE_NOTICE',
  'SQLITE_WARNING',
]

function baseCodeName(base: number) {
  return (base > 0 ? BASE_CODES[base] : undefined) ?? `SQLITE_UNKNOWN_${base}`
}
