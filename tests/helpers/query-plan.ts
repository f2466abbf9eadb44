import type { InStatement } from '@libsql/client'
import { vi } from 'vitest'
import type { Database } from '~/db/client.server'

/**
 * What a service sends and how SQLite would run it, for tests that hold a read to its indexes:
 * the statements `run` sends through the client (captured at the client, so they are the very
 * ones sent), and SQLite's plan for one of them, a line per step ("SEARCH tasks USING INDEX …").
 */
export async function statementsOf(db: Database, run: () => Promise<unknown>) {
  const sent: InStatement[] = []
  const execute = db.$client.execute.bind(db.$client)
  const spy = vi.spyOn(db.$client, 'execute').mockImplementation(((statement: InStatement) => {
    sent.push(statement)
    return execute(statement)
  }) as typeof db.$client.execute)
  try {
    await run()
  } finally {
    spy.mockRestore()
  }
  return sent
}

export async function planOf(db: Database, statement: InStatement) {
  const { sql, args } = typeof statement === 'string' ? { sql: statement, args: [] } : statement
  const plan = await db.$client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args ?? [] })
  return plan.rows.map((row) => String(row.detail))
}
