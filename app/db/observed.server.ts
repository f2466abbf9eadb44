import type { Client, InStatement, Transaction } from '@libsql/client'
import { dbStatementDuration, isMetricsOn } from '~/utils/metrics.server'
import { tracer, withSpan } from '~/utils/tracing.server'

/**
 * The database's one place for metrics and traces: every statement and batch the app sends goes
 * through the client's `execute`, `batch` or a transaction's `execute`, wrapped here with its
 * timing (`threadwork_db_statement_duration_seconds` by kind) and a span beneath the request's.
 * Wrapped only when metrics or tracing were switched on at start-up; otherwise the client is
 * returned as it is and a statement costs what it did.
 */

type Kind = 'read' | 'write' | 'batch'

const READ = /^\s*(select|pragma|explain)\b/i
const TABLE = /\b(?:from|into|update|join)\s+["`[]?(\w+)/i

function sqlOf(statement: InStatement | [string, unknown?]) {
  if (typeof statement === 'string') return statement
  return Array.isArray(statement) ? statement[0] : statement.sql
}

/** What a span may say of a statement: its operation and first table, never its values. */
function attributesOf(sql: string) {
  const operation = sql.trim().split(/\s/, 1)[0]?.toUpperCase() ?? ''
  const table = TABLE.exec(sql)?.[1]
  return {
    'db.system.name': 'sqlite',
    'db.operation.name': operation,
    ...(table ? { 'db.collection.name': table } : {}),
  }
}

function observe<T>(
  kind: Kind,
  attributes: Record<string, string | number>,
  run: () => Promise<T>,
): Promise<T> {
  const timed = isMetricsOn()
    ? async () => {
        const started = process.hrtime.bigint()
        try {
          return await run()
        } finally {
          dbStatementDuration.observe({ kind }, Number(process.hrtime.bigint() - started) / 1e9)
        }
      }
    : run
  return withSpan(`db ${kind}`, attributes, timed)
}

const kindOf = (sql: string): Kind => (READ.test(sql) ? 'read' : 'write')

function observeTransaction(transaction: Transaction): Transaction {
  const execute = transaction.execute.bind(transaction)
  transaction.execute = (statement: InStatement) => {
    const sql = sqlOf(statement)
    return observe(kindOf(sql), attributesOf(sql), () => execute(statement))
  }
  return transaction
}

export function observeStatements(client: Client): Client {
  if (!isMetricsOn() && !tracer()) return client
  const execute = client.execute.bind(client) as (...args: unknown[]) => ReturnType<Client['execute']>
  client.execute = ((statement: InStatement, args?: unknown) => {
    const sql = sqlOf(statement)
    return observe(kindOf(sql), attributesOf(sql), () => execute(statement, args))
  }) as Client['execute']
  const batch = client.batch.bind(client)
  client.batch = ((statements, mode) =>
    observe('batch', { 'db.system.name': 'sqlite', 'db.operation.batch.size': statements.length }, () =>
      batch(statements, mode),
    )) as Client['batch']
  const transaction = client.transaction.bind(client)
  client.transaction = (async (mode) => observeTransaction(await transaction(mode))) as Client['transaction']
  return client
}
