import type { InStatement, InValue, ResultSet } from '@libsql/client'
import { getTableColumns, Placeholder, SQL, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import type { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { dbBusyRetries } from '~/utils/metrics.server'
import type { Database, Transaction } from './client.server'

/**
 * How a service writes: one way (docs/decisions/033-one-way-to-write.md).
 *
 * `commit(db, { name: statement, … })` sends the named statements, built with drizzle's query
 * builder, as one batch: one commit, one round trip to a libSQL server, the write lock held for
 * the statements only (docs/decisions/026-hot-writes-as-batches.md). It answers each statement's
 * outcome under its name. Ids are minted before, so no statement needs an earlier one's result;
 * checks are read before, and where a rule could change meanwhile (a share revoked, a task
 * deleted) the statement carries the rule as its condition and the ones after it are conditional
 * on it (`wroteJustBefore`, `insertIf`), so the service reads the outcome by name to say why
 * nothing changed. A single statement is a commit of one, which the client sends as the statement
 * alone (client.server.ts): no more than the bare statement would cost.
 *
 * The hot paths grow the same commit with `prepareStep`: a statement whose SQL is built once and
 * bound per call. The rare write whose statements are computed from rows read inside its own
 * commit uses `commitAfterReading`.
 */

/** A statement built by drizzle's query builder (insert, update, delete or select). */
export type Query = { toSQL(): { sql: string; params: unknown[] } }
/** A statement of a commit: a query, or a prepared one bound to its values (`prepareStep`). */
export type Step = Query | BoundStep
/** What a statement did: the rows it wrote, and the rows it read or returned, by column name. */
export type StepResult = { rowsAffected: number; rows: Record<string, unknown>[] }

/** The statements of one commit, in order, by name; a name may hold a list (one per recipient) or nothing. */
export type Steps = Record<string, Step | readonly Step[] | undefined | false>
export type StepResults<S extends Steps> = {
  [Name in keyof S]: S[Name] extends readonly Step[]
    ? StepResult[]
    : S[Name] extends Step
      ? StepResult
      : StepResult | StepResult[] | undefined
}

/** Waits before each new try of a batch the server found the database busy for. */
const BUSY_RETRY_DELAYS_MS = [10, 40, 150]

/**
 * Runs the named statements, in the order given, as one atomic batch, and answers each one's
 * result under its name (a list under a name that held a list; undefined where it held nothing).
 * A batch the database refuses as busy is sent again (`whileBusy`).
 */
export async function commit<S extends Steps>(db: Database, steps: S): Promise<StepResults<S>> {
  const statements: InStatement[] = []
  const slots: [name: string, start: number, count: number | undefined][] = []
  for (const [name, step] of Object.entries(steps)) {
    // JavaScript lists integer-like keys first, whatever their place: the order would not be the one written.
    if (/^\d+$/.test(name)) throw new Error(`A commit's step needs a name, not a number: "${name}"`)
    if (!step) continue
    const list = isStepList(step) ? step : undefined
    slots.push([name, statements.length, list?.length])
    for (const one of list ?? [step as Step]) statements.push(statementOf(one))
  }
  const results = statements.length > 0 ? await whileBusy(() => db.$client.batch(statements, 'write')) : []
  const named: Record<string, StepResult | StepResult[]> = {}
  for (const [name, start, count] of slots) {
    named[name] =
      count === undefined
        ? resultOf(results[start])
        : results.slice(start, start + count).map((result) => resultOf(result))
  }
  return named as StepResults<S>
}

function isStepList(step: Step | readonly Step[]): step is readonly Step[] {
  return Array.isArray(step)
}

function statementOf(step: Step): InStatement {
  if (step instanceof BoundStep) return step.statement
  const { sql: text, params } = step.toSQL()
  if (params.some((param) => param instanceof Placeholder)) {
    throw new Error(`A statement with placeholders is bound through prepareStep: ${text}`)
  }
  return { sql: text, args: params as InValue[] }
}

function resultOf(result: ResultSet | undefined): StepResult {
  return { rowsAffected: result?.rowsAffected ?? 0, rows: (result?.rows ?? []) as Record<string, unknown>[] }
}

/**
 * Every write's wait for the lock, requests' and background passes' alike. A local file's
 * connection waits in SQLite's busy handler (client.server.ts) and fails once its timeout runs
 * out behind a longer writer; under concurrent writers sqld at times refuses at once rather than
 * waiting. Either way the refused write was one transaction and wrote nothing, so it is sent
 * again, a few times, before the error reaches the person or the background pass.
 */
async function whileBusy<T>(write: () => Promise<T>): Promise<T> {
  for (const delayMs of [...BUSY_RETRY_DELAYS_MS, undefined]) {
    try {
      return await write()
    } catch (error) {
      if (delayMs === undefined || !isBusy(error)) throw error
      dbBusyRetries.inc()
      await new Promise((resolve) => setTimeout(resolve, delayMs * (0.5 + Math.random())))
    }
  }
  throw new Error('unreachable')
}

export function isBusy(error: unknown) {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; depth++) {
    if ((cause as { code?: unknown }).code === 'SQLITE_BUSY') return true
    cause = cause.cause
  }
  return false
}

/**
 * True when the statement right before this one in the commit wrote a row: SQLite's `changes()`
 * counts the rows of the connection's last finished statement, and a batch runs on one
 * connection. Put it on the statement named right after the one it depends on.
 */
export const wroteJustBefore: SQL = sql`changes() > 0`

// ── Inserting only while a rule holds ───────────────────────────────────────

type Placeholders = ReturnType<typeof sql.placeholder>
/** The values of a new row, typed by its table: a new NOT NULL column without a default fails to compile. */
export type InsertValues<Table extends SQLiteTable> = {
  [Column in keyof Table['$inferInsert']]: Table['$inferInsert'][Column] | SQL | Placeholders
}

/** The one row `insertIf` selects its values from. */
const oneRow = sql`(SELECT 1)`

let isBuildingPrepared = false

/** What builds statements: the database, an open transaction, or `prepareStep`'s builder. */
export type Builder = Pick<BaseSQLiteDatabase<'async', ResultSet>, 'insert' | 'select' | 'update' | 'delete'>

/**
 * `INSERT … SELECT <values> WHERE <condition>`: the row is written only if `condition` holds as
 * the commit reaches it (the task is still visible to the author, the comment was written). Every
 * column of the table is selected in the table's order, so a column added to the schema is
 * written too — given in `values`, or its default as `.values()` would use it. Chain
 * `.onConflictDoNothing()` / `.onConflictDoUpdate()` as on any insert.
 */
export function insertIf<Table extends SQLiteTable>(
  db: Builder,
  table: Table,
  values: InsertValues<Table>,
  condition: SQL,
) {
  const given = values as Record<string, unknown>
  const fields: Record<string, SQL> = {}
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    fields[key] = valueSql(column, given[key], key)
  }
  // A WHERE is always there: SQLite reads `ON CONFLICT` after a bare `SELECT … FROM` as a join's ON.
  const select = db.select(fields).from(oneRow).where(condition)
  return db.insert(table).select(select as never)
}

type TableColumn = ReturnType<typeof getTableColumns<SQLiteTable>>[string]

function valueSql(column: TableColumn, value: unknown, key: string): SQL {
  if (value instanceof SQL) return value
  if (value instanceof Placeholder) return sql`${value}`
  if (value !== undefined) return sql`${sql.param(value, column)}`
  if (column.default !== undefined && column.default !== null) {
    return column.default instanceof SQL ? column.default : sql`${sql.param(column.default, column)}`
  }
  const computed = column.defaultFn ?? column.onUpdateFn
  if (computed) {
    // Built once, the default would be computed once: the same id or instant on every call.
    if (isBuildingPrepared)
      throw new Error(`A prepared insert needs "${key}" given: its default is computed per row`)
    const made = computed()
    return made instanceof SQL ? made : sql`${sql.param(made, column)}`
  }
  return sql`null`
}

// ── Statements built once ───────────────────────────────────────────────────

/** A prepared statement bound to one call's values, ready for `commit`. */
export class BoundStep {
  constructor(readonly statement: { sql: string; args: InValue[] }) {}
}

/**
 * A statement of a hot write whose SQL is built once, not per call: `build` makes it with
 * drizzle's builder (one that reaches no database), naming its values with `sql.placeholder`, and each call binds them. The text
 * is the same on every call, so a driver that keeps its compiled statements by their text
 * (native-client.server.ts) finds them again, and the call does no building at all.
 *
 * A placeholder takes the value as the database stores it (milliseconds for a time, JSON text
 * for a JSON column): no column encodes it. Give every value computed per call (ids, instants)
 * as a placeholder, `updatedAt` of an update included: a default built once would be computed
 * once (insertIf refuses to).
 */
export function prepareStep<Values extends Record<string, unknown> = Record<string, unknown>>(
  build: (db: Builder) => Query,
) {
  let shape: { sql: string; params: unknown[] } | undefined
  return (values: Values): BoundStep => {
    shape ??= shapeOf(build)
    const args = shape.params.map((param, index) => {
      if (!(param instanceof Placeholder)) return param as InValue
      const value = values[param.name as keyof Values]
      if (value === undefined) throw new Error(`No value for "${param.name}" (parameter ${index + 1})`)
      return value as InValue
    })
    return new BoundStep({ sql: shape.sql, args })
  }
}

/** Builds statements for their text only: it reaches no database. */
const textBuilder = drizzle.mock()

function shapeOf(build: (db: Builder) => Query) {
  isBuildingPrepared = true
  try {
    return build(textBuilder).toSQL()
  } finally {
    isBuildingPrepared = false
  }
}

// ── Reading inside the write ────────────────────────────────────────────────

/**
 * The exception to `commit`, for rare writes whose statements are computed from rows read inside
 * the same commit, where no condition on a statement can stand in for the read: a Stripe event
 * and the access rebuilt from all the records (docs/decisions/021-webhooks-rebuild-access.md),
 * the mention e-mail rendered from the mentions it marks e-mailed, the due-date reminder rendered
 * from the tasks it records as reminded, seeding. An interactive
 * transaction: on a libSQL server it holds the write lock across a round trip per statement, so
 * never on a hot path, and nothing slow inside (tests/unit/transactions-without-io.test.ts).
 * Inside, statements are the same builders as a commit's, each awaited on `tx`; a helper that
 * writes on it takes a `Transaction` (tests/unit/one-way-to-write.test.ts allows no other await).
 * Refused as busy, the transaction is rolled back and run again from its first read, as a commit
 * is sent again (`whileBusy`): `work` reads and writes through `tx` only, so a second run starts
 * from what is there now and the first left nothing behind.
 */
export function commitAfterReading<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return whileBusy(() => db.transaction(work))
}
