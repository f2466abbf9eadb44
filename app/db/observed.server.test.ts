import { createClient } from '@libsql/client'
import { describe, expect, test } from 'vitest'
import { dbStatementDuration, startMetrics } from '~/utils/metrics.server'
import { observeStatements } from './observed.server'

/**
 * The database's one place for metrics and traces: untouched while both are off (a statement
 * costs what it did), and every statement, batch and transaction's statement timed by kind once on.
 */

const count = async (kind: string) =>
  (await dbStatementDuration.get()).values.find(
    (value) => value.metricName?.endsWith('_count') && value.labels.kind === kind,
  )?.value ?? 0

describe('observeStatements', () => {
  test('leaves the client as it is while metrics and tracing are off', () => {
    const client = createClient({ url: ':memory:' })
    const { execute, batch, transaction } = client
    expect(observeStatements(client)).toBe(client)
    expect(client.execute).toBe(execute)
    expect(client.batch).toBe(batch)
    expect(client.transaction).toBe(transaction)
    client.close()
  })

  test('times every statement by kind once metrics are on', async () => {
    startMetrics()
    const client = observeStatements(createClient({ url: ':memory:' }))
    await client.execute('CREATE TABLE notes (body TEXT)')
    await client.execute({ sql: 'INSERT INTO notes VALUES (?)', args: ['a'] })
    await client.execute('SELECT * FROM notes')
    await client.batch(['INSERT INTO notes VALUES (1)', 'INSERT INTO notes VALUES (2)'], 'write')
    const transaction = await client.transaction('write')
    await transaction.execute('SELECT count(*) FROM notes')
    await transaction.commit()
    expect(await count('write')).toBe(2)
    expect(await count('read')).toBe(2)
    expect(await count('batch')).toBe(1)
    client.close()
  })
})
