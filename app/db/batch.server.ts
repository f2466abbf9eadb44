import type { ResultSet } from '@libsql/client'
import { fillPlaceholders, Param, SQL, type SQLChunk, StringChunk, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database, Executor } from './client.server'
import { isBusy } from './write.server'

/**
 * TRANSITIONAL: the task writes' old batch, until they move to `commit` (app/db/write.server.ts).
 *
 * The hot writes — a change plus its event, and the notifications and jobs it calls for — go out
 * as one atomic batch, not an interactive transaction (docs/decisions/026-hot-writes-as-batches.md).
 * To a libSQL server a batch is one request that runs in a transaction there, so the write lock is
 * held for the statements, not for the round trips between them; on a file it runs start to end
 * without yielding. Ids are minted before (random strings, docs/decisions/003-libsql-drizzle.md),
 * so no statement needs an earlier one's result.
 *
 * Checks are read before the batch, which is a moment old by the time it runs: where a rule could
 * have changed meanwhile (a share revoked, a task deleted), the change's statement carries the
 * rule as its condition, the statements after it are conditional on it (`wroteJustBefore`, or
 * their own EXISTS), and the service reads the affected rows to tell the person why nothing
 * changed.
 */
export type Statement = BatchItem<'sqlite'>

/**
 * A statement of a hot write whose SQL is built once, not per call: `build` names the values with
 * `sql.placeholder`, and each call binds them. drizzle's `.prepare()` cannot go into a batch (the
 * batch builds every statement's SQL again), so this keeps the finished text, cut at its
 * parameters, and hands drizzle flat text and values that take no building: no tables or columns
 * to escape, no nested conditions to walk. The text is the same on every call, so a driver that
 * keeps its compiled statements by their text finds them again.
 */
export function preparedStatement<Values extends Record<string, unknown>>(build: () => SQL) {
  let shape: { parts: StringChunk[]; params: unknown[] } | undefined
  return (db: Executor, values: Values): Statement => {
    shape ??= shapeOf(db, build())
    const params = fillPlaceholders(shape.params, values)
    const chunks: SQLChunk[] = [shape.parts[0] as StringChunk]
    for (const [index, param] of params.entries()) {
      if (param === undefined) throw new Error(`No value for parameter ${index + 1} of a prepared statement`)
      chunks.push(new Param(param), shape.parts[index + 1] as StringChunk)
    }
    return db.run(new SQL(chunks))
  }
}

function shapeOf(db: Executor, statement: SQL) {
  const { sql: text, params } = db.run(statement).getQuery()
  // SQLite's parameters are `?`; the statements built here carry no `?` of their own.
  const parts = text.split('?')
  if (parts.length !== params.length + 1) throw new Error(`A prepared statement holds a literal "?": ${text}`)
  return { parts: parts.map((part) => new StringChunk(part)), params }
}

/** Waits before each new try of a batch the server found the database busy for. */
const BUSY_RETRY_DELAYS_MS = [10, 40, 150]

/**
 * Runs the statements as one batch. Under concurrent writers sqld at times refuses a batch with
 * SQLITE_BUSY at once rather than waiting for the lock; a refused batch wrote nothing (it is one
 * transaction), so it is safe to send again, a few times, before the error reaches the person.
 */
export async function writeBatch(db: Database, statements: Statement[]): Promise<unknown[]> {
  const [first, ...rest] = statements
  if (!first) return []
  for (const delayMs of [...BUSY_RETRY_DELAYS_MS, undefined]) {
    try {
      return await db.batch([first, ...rest])
    } catch (error) {
      if (delayMs === undefined || !isBusy(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, delayMs * (0.5 + Math.random())))
    }
  }
  throw new Error('unreachable')
}

/** How many rows a statement of a batch wrote. */
export function rowsAffected(result: unknown) {
  return (result as ResultSet).rowsAffected
}

/** The first row a reading statement of a batch answered, by column name. */
export function firstRow(result: unknown): Record<string, unknown> | undefined {
  return (result as ResultSet).rows[0]
}

/**
 * True when the statement right before this one in the batch wrote a row: SQLite's `changes()`
 * counts the rows of the connection's last finished statement, and a batch runs on one connection.
 */
export const wroteJustBefore: SQL = sql`changes() > 0`
