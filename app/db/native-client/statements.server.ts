import {
  type InArgs,
  type InStatement,
  type IntMode,
  type InValue,
  LibsqlBatchError,
  LibsqlError,
  type ResultSet,
  type Row,
  type TransactionMode,
  type Value,
} from '@libsql/client'
import { type Connection, type ConnectionPool, describeColumns } from './connections.server'
import { mapSqliteError } from './errors.server'

/**
 * Running statements on a native connection and answering as `@libsql/client` does: the same
 * `ResultSet` and rows, ints per `intMode`, BLOBs as ArrayBuffer, batch failures with the
 * statement's index.
 */

/** Statements of a batch or migration, inside the transaction already begun on `connection`. */
export function executeInTransaction(
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
export function asBatchError<T>(index: number, run: () => T): T {
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

export function beginStatement(mode: TransactionMode) {
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

export function executeStatement(
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

export function executeMultiple(connection: Connection, sql: string, pool: ConnectionPool) {
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
