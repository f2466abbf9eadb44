import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import {
  type Client,
  createClient,
  type IntMode,
  type InValue,
  LibsqlBatchError,
  LibsqlError,
} from '@libsql/client'
import Database from 'libsql'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { openDatabase } from './client.server'
import { createNativeClient, NativeClient } from './native-client.server'
import { isDatabaseUnavailable } from './unavailable.server'
import { isBusy } from './write.server'

/**
 * Our client must be indistinguishable from `@libsql/client`'s file client to everything above
 * it, so every behaviour here runs against both, with the same expectations.
 */
type Options = { intMode?: IntMode; busyTimeoutMs?: number; maxConnections?: number }
type Open = (path: string, options?: Options) => Client

const implementations: [string, Open][] = [
  [
    '@libsql/client',
    (path, options = {}) =>
      createClient({
        url: `file:${path}`,
        intMode: options.intMode,
        timeout: options.busyTimeoutMs ?? 5_000,
        concurrency: options.maxConnections,
      }),
  ],
  [
    'ours',
    (path, options = {}) =>
      createNativeClient({
        path,
        busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
        synchronous: 'NORMAL',
        intMode: options.intMode,
        maxConnections: options.maxConnections,
      }),
  ],
]

const [original, ours] = implementations.map(([, open]) => open) as [Open, Open]

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

/** A path for a new database file, removed (with its folder) after the test. */
function freshPath() {
  const folder = mkdtempSync(join(tmpdir(), 'threadwork-native-'))
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
  return join(folder, 'test.db')
}

function opened(open: Open, path = freshPath(), options?: Options) {
  const client = open(path, options)
  cleanups.push(() => client.close())
  return client
}

/** What a promise settled to, comparable across clients: the answer as JSON, or the error. */
async function outcome(run: () => Promise<unknown>) {
  try {
    const result = await run()
    return {
      result: JSON.parse(
        JSON.stringify(result, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)),
      ),
    }
  } catch (error) {
    const { name, message, code, extendedCode, rawCode } = error as LibsqlError
    return { error: { name, message, code, extendedCode, rawCode } }
  }
}

describe.each(implementations)('%s', (_, open) => {
  test('a result has its columns, types, rows by index and by name, and its counts', async () => {
    const client = opened(open)
    await client.execute(
      'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight REAL, data BLOB)',
    )
    const inserted = await client.execute({
      sql: 'INSERT INTO items (name, weight, data) VALUES (?, ?, ?)',
      args: ['anvil', 12.5, new Uint8Array([1, 2, 3])],
    })
    expect(inserted.rowsAffected).toBe(1)
    expect(inserted.lastInsertRowid).toBe(1n)
    expect(inserted.columns).toEqual([])
    expect(inserted.rows).toEqual([])

    const selected = await client.execute({
      sql: 'SELECT id, name, weight, data, NULL AS missing FROM items WHERE name = :name',
      args: { ':name': 'anvil' },
    })
    expect(selected.columns).toEqual(['id', 'name', 'weight', 'data', 'missing'])
    expect(selected.columnTypes).toEqual(['INTEGER', 'TEXT', 'REAL', 'BLOB', ''])
    expect(selected.rowsAffected).toBe(0)
    expect(selected.lastInsertRowid).toBeUndefined()
    const [row] = selected.rows
    expect(row?.length).toBe(5)
    expect([row?.[0], row?.[1], row?.[2], row?.[4]]).toEqual([1, 'anvil', 12.5, null])
    expect(Object.keys(row ?? {})).toEqual(['id', 'name', 'weight', 'data', 'missing'])
    expect(row?.data).toBeInstanceOf(ArrayBuffer)
    expect([...new Uint8Array(row?.data as ArrayBuffer)]).toEqual([1, 2, 3])
    expect(selected.toJSON()).toEqual({
      columns: ['id', 'name', 'weight', 'data', 'missing'],
      columnTypes: ['INTEGER', 'TEXT', 'REAL', 'BLOB', ''],
      rows: [[1, 'anvil', 12.5, 'AQID', null]],
      rowsAffected: 0,
      lastInsertRowid: null,
    })
    expect(inserted.toJSON().lastInsertRowid).toBe('1')
  })

  test('of two columns with one name, the first keeps the name', async () => {
    const client = opened(open)
    const { rows } = await client.execute('SELECT 1 AS a, 2 AS a')
    expect(rows[0]?.a).toBe(1)
    expect([rows[0]?.[0], rows[0]?.[1]]).toEqual([1, 2])
  })

  test.each<[IntMode, number | bigint | string]>([
    ['number', 42],
    ['bigint', 42n],
    ['string', '42'],
  ])('integers come back as the intMode %s says', async (intMode, expected) => {
    const client = opened(open, freshPath(), { intMode })
    const { rows } = await client.execute({ sql: 'SELECT 42 AS small, ? AS flag', args: [true] })
    expect(rows[0]?.small).toEqual(expected)
    expect(rows[0]?.flag).toEqual(intMode === 'number' ? 1 : intMode === 'bigint' ? 1n : '1')
    const big = client.execute({ sql: 'SELECT ? AS big', args: [2n ** 62n] })
    if (intMode === 'number') await expect(big).rejects.toThrow(RangeError)
    else expect((await big).rows[0]?.big).toEqual(intMode === 'bigint' ? 2n ** 62n : `${2n ** 62n}`)
  })

  test('arguments the database cannot take are refused before it sees them', async () => {
    const client = opened(open)
    await expect(client.execute({ sql: 'SELECT ?', args: [Number.NaN] })).rejects.toThrow(RangeError)
    await expect(client.execute({ sql: 'SELECT ?', args: [2n ** 63n] })).rejects.toThrow(RangeError)
    await expect(
      client.execute({ sql: 'SELECT ?', args: [undefined as unknown as InValue] }),
    ).rejects.toThrow(TypeError)
    const { rows } = await client.execute({ sql: 'SELECT ? AS at', args: [new Date(1_700_000_000_000)] })
    expect(rows[0]?.at).toBe(1_700_000_000_000)
  })

  test('a constraint violation is a LibsqlError with its base, extended and raw codes', async () => {
    const client = opened(open)
    await client.executeMultiple(`
      CREATE TABLE owners (id TEXT PRIMARY KEY, email TEXT UNIQUE);
      CREATE TABLE pets (id TEXT PRIMARY KEY, owner_id TEXT NOT NULL REFERENCES owners(id));
      INSERT INTO owners VALUES ('o1', 'a@example.com');
    `)
    const unique = await client
      .execute("INSERT INTO owners VALUES ('o2', 'a@example.com')")
      .catch((error) => error)
    expect(unique).toBeInstanceOf(LibsqlError)
    expect(unique).toMatchObject({
      code: 'SQLITE_CONSTRAINT',
      extendedCode: 'SQLITE_CONSTRAINT_UNIQUE',
      rawCode: 2067,
    })
    expect(unique.message).toBe('SQLITE_CONSTRAINT: UNIQUE constraint failed: owners.email')
    expect(unique.cause).toBeInstanceOf(Database.SqliteError)

    // Foreign keys are enforced on every connection.
    await expect(client.execute("INSERT INTO pets VALUES ('p1', 'nobody')")).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT',
      extendedCode: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    })
    await expect(client.execute('SELEC 1')).rejects.toMatchObject({ code: 'SQLITE_ERROR', rawCode: 1 })
  })

  test('a statement that failed, while writing or while reading rows, runs again with new arguments', async () => {
    const client = opened(open)
    await client.execute('CREATE TABLE ids (id INTEGER PRIMARY KEY)')
    const insert = 'INSERT INTO ids VALUES (?)'
    await client.execute({ sql: insert, args: [1] })
    for (let i = 0; i < 2; i++) {
      await expect(client.execute({ sql: insert, args: [1] })).rejects.toMatchObject({
        code: 'SQLITE_CONSTRAINT',
      })
    }
    expect((await client.execute({ sql: insert, args: [2] })).rowsAffected).toBe(1)
    const read = 'SELECT id, abs(?) AS size FROM ids ORDER BY id'
    await expect(client.execute({ sql: read, args: [-(2n ** 63n)] })).rejects.toMatchObject({
      code: 'SQLITE_ERROR',
    })
    expect((await client.execute({ sql: read, args: [3] })).rows.map((row) => [row.id, row.size])).toEqual([
      [1, 3],
      [2, 3],
    ])
  })

  test('a writer kept waiting past the busy timeout by another client gets SQLITE_BUSY', async () => {
    const path = freshPath()
    const first = opened(open, path)
    await first.execute('PRAGMA journal_mode = WAL')
    await first.execute('CREATE TABLE notes (body TEXT)')
    const second = opened(open, path, { busyTimeoutMs: 50 })
    const holding = await first.transaction('write')
    const refused = await second.execute("INSERT INTO notes VALUES ('late')").catch((error) => error)
    expect(refused).toBeInstanceOf(LibsqlError)
    expect(refused).toMatchObject({ code: 'SQLITE_BUSY', rawCode: 5 })
    expect(isBusy(refused)).toBe(true)
    expect(isDatabaseUnavailable(refused)).toBe(true)
    // Readers are not kept waiting in WAL mode, and the writer goes on once the lock is free.
    expect((await second.execute('SELECT count(*) AS n FROM notes')).rows[0]?.n).toBe(0)
    await holding.commit()
    await second.execute("INSERT INTO notes VALUES ('on time')")
  })

  test('a batch is all or nothing, and names the statement that failed', async () => {
    const client = opened(open)
    await client.execute('CREATE TABLE tags (name TEXT PRIMARY KEY)')
    const results = await client.batch([
      { sql: 'INSERT INTO tags VALUES (?)', args: ['a'] },
      ['INSERT INTO tags VALUES (?)', ['b']],
      'SELECT name FROM tags ORDER BY name',
    ])
    expect(results.map((result) => result.rowsAffected)).toEqual([1, 1, 0])
    expect(results[2]?.rows.map((row) => row.name)).toEqual(['a', 'b'])

    const failed = await client
      .batch(["INSERT INTO tags VALUES ('c')", "INSERT INTO tags VALUES ('a')"], 'write')
      .catch((error) => error)
    expect(failed).toBeInstanceOf(LibsqlBatchError)
    expect(failed).toMatchObject({
      statementIndex: 1,
      code: 'SQLITE_CONSTRAINT',
      extendedCode: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    })
    expect((await client.execute('SELECT count(*) AS n FROM tags')).rows[0]?.n).toBe(2)

    // A statement that ends the batch's transaction leaves the rest refused.
    const ended = await client
      .batch(["INSERT INTO tags VALUES ('d')", 'ROLLBACK', "INSERT INTO tags VALUES ('e')"])
      .catch((error) => error)
    expect(ended).toMatchObject({ statementIndex: 2, code: 'TRANSACTION_CLOSED' })
    expect((await client.execute('SELECT count(*) AS n FROM tags')).rows[0]?.n).toBe(2)
  })

  test('a transaction holds its connection until it settles; when they hold them all, calls fail', async () => {
    const client = opened(open, freshPath(), { maxConnections: 2 })
    await client.execute('CREATE TABLE counts (n INTEGER)')
    const first = await client.transaction('deferred')
    const second = await client.transaction('read')
    await expect(client.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_ACTIVE' })
    await first.execute('INSERT INTO counts VALUES (1)')
    expect(first.closed).toBe(false)
    await first.commit()
    expect(first.closed).toBe(true)
    await expect(first.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' })
    expect((await client.execute('SELECT count(*) AS n FROM counts')).rows[0]?.n).toBe(1)

    // A read transaction saw the table as it was when it began reading.
    expect((await second.execute('SELECT count(*) AS n FROM counts')).rows[0]?.n).toBe(1)
    second.close()
    expect(second.closed).toBe(true)

    const rolledBack = await client.transaction()
    const [inserted] = await rolledBack.batch([{ sql: 'INSERT INTO counts VALUES (?)', args: [2] }])
    expect(inserted?.rowsAffected).toBe(1)
    await rolledBack.rollback()
    expect((await client.execute('SELECT count(*) AS n FROM counts')).rows[0]?.n).toBe(1)
  })

  test('a connection given back mid-transaction is rolled back before anyone else uses it', async () => {
    const client = opened(open, freshPath(), { maxConnections: 1 })
    await client.execute('CREATE TABLE drafts (body TEXT)')
    await client.executeMultiple("BEGIN; INSERT INTO drafts VALUES ('left open');")
    expect((await client.execute('SELECT count(*) AS n FROM drafts')).rows[0]?.n).toBe(0)
    const transaction = await client.transaction('write')
    await transaction.execute("INSERT INTO drafts VALUES ('kept')")
    await transaction.commit()
    expect((await client.execute('SELECT body FROM drafts')).rows.map((row) => row.body)).toEqual(['kept'])
  })

  test('a closed client refuses work until it reconnects', async () => {
    const client = opened(open)
    client.close()
    expect(client.closed).toBe(true)
    await expect(client.execute('SELECT 1')).rejects.toMatchObject({ code: 'CLIENT_CLOSED' })
    client.reconnect()
    expect(client.closed).toBe(false)
    expect((await client.execute('SELECT 1 AS one')).rows[0]?.one).toBe(1)
    expect(client.protocol).toBe('file')
  })

  test('migrate runs its statements in one transaction with foreign keys off, and turns them on again', async () => {
    const client = opened(open)
    await client.executeMultiple(
      'CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE kids (parent TEXT REFERENCES parents(id));',
    )
    await client.migrate(["INSERT INTO kids VALUES ('orphan')", 'CREATE TABLE later (id INTEGER)'])
    expect((await client.execute('SELECT count(*) AS n FROM kids')).rows[0]?.n).toBe(1)
    expect((await client.execute('PRAGMA foreign_keys')).rows[0]?.foreign_keys).toBe(1)
    await expect(client.migrate(['CREATE TABLE never (id INTEGER)', 'NOT SQL'])).rejects.toBeInstanceOf(
      LibsqlBatchError,
    )
    expect(
      (await client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = 'never'")).rows[0]?.n,
    ).toBe(0)
  })

  test('a schema change shows in the columns of a statement run before it', async () => {
    const path = freshPath()
    const client = opened(open, path)
    await client.executeMultiple("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada');")
    expect((await client.execute('SELECT * FROM people')).columns).toEqual(['name'])
    await client.execute('ALTER TABLE people ADD COLUMN email TEXT')
    expect((await client.execute('SELECT * FROM people')).columns).toEqual(['name', 'email'])
  })

  test('a statement run before another client wrote reads what it wrote', async () => {
    const path = freshPath()
    const reader = opened(open, path)
    await reader.execute('PRAGMA journal_mode = WAL')
    await reader.execute('CREATE TABLE events (id INTEGER PRIMARY KEY)')
    const newest = 'SELECT max(id) AS id FROM events'
    expect((await reader.execute(newest)).rows[0]?.id).toBeNull()
    const writer = opened(open, path)
    await writer.execute('INSERT INTO events VALUES (7)')
    expect((await reader.execute(newest)).rows[0]?.id).toBe(7)
  })
})

test.each([
  'SELECT 1 AS id, 2 AS name, NULL AS note',
  'SELECT 1 AS a, 2 AS a, 3 AS b',
  'SELECT 1 AS "0", 2 AS "length", 3 AS "__proto__", 4 AS "constructor"',
])('rows of %s have the original rows’ own properties, in order, with the same descriptors', async (sql) => {
  const described = async (open: Open) => {
    const [row] = (await opened(open).execute(sql)).rows
    return Reflect.ownKeys(row ?? {}).map((key) => [key, Object.getOwnPropertyDescriptor(row, key)])
  }
  expect(await described(ours)).toEqual(await described(original))
})

test('sync fails for a file that is not a replica, as the original does', async () => {
  const theirs = await outcome(() => opened(original).sync())
  expect(theirs).toHaveProperty('error')
  expect(await outcome(() => opened(ours).sync())).toEqual(theirs)
})

fcTest.prop(
  [
    fc.constantFrom<IntMode>('number', 'bigint', 'string'),
    fc.array(
      fc.oneof(
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.maxSafeInteger(),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'binary' }),
        fc.uint8Array({ maxLength: 64 }),
        fc.uint8Array({ maxLength: 16 }).map((bytes) => bytes.slice().buffer),
        fc.date({ noInvalidDate: true }),
      ),
      { minLength: 1, maxLength: 8 },
    ),
  ],
  { numRuns: 150 },
)(
  'any parameter values come back from both clients identically',
  async (intMode, values) => {
    const placeholders = values.map(() => '?').join(', ')
    const answers = []
    for (const client of await clientsFor(intMode)) {
      answers.push({
        selected: await outcome(() => client.execute({ sql: `SELECT ${placeholders}`, args: values })),
        stored: await outcome(async () => {
          await client.batch([
            'DELETE FROM cells',
            ...values.map((value) => ({ sql: 'INSERT INTO cells VALUES (?)', args: [value] })),
          ])
          return (await client.execute('SELECT value, typeof(value) AS type FROM cells ORDER BY rowid')).rows
        }),
      })
    }
    expect(answers[1]).toEqual(answers[0])
  },
  // Two hundred commits per client on a machine other tests load too.
  30_000,
)

/** One client of each kind per intMode, on files of their own, for the whole property. */
const propertyFolder = mkdtempSync(join(tmpdir(), 'threadwork-native-property-'))
const clientsByIntMode = new Map<IntMode, Promise<Client[]>>()
function clientsFor(intMode: IntMode) {
  let clients = clientsByIntMode.get(intMode)
  if (!clients) {
    clients = Promise.all(
      [original, ours].map(async (open, index) => {
        const client = open(join(propertyFolder, `${intMode}-${index}.db`), { intMode })
        await client.executeMultiple('PRAGMA journal_mode = WAL; CREATE TABLE cells (value)')
        return client
      }),
    )
    clientsByIntMode.set(intMode, clients)
  }
  return clients
}
afterAll(async () => {
  for (const clients of clientsByIntMode.values()) for (const client of await clients) client.close()
  rmSync(propertyFolder, { recursive: true, force: true })
})

describe('ours', () => {
  test('every connection, those opened for transactions too, runs with the app pragmas', async () => {
    const client = opened(ours, freshPath(), { busyTimeoutMs: 1_234 })
    const pragmas = async (executor: Pick<Client, 'execute'>) => {
      const read = async (name: string) => (await executor.execute(`PRAGMA ${name}`)).rows[0]?.[0]
      return {
        journal: await read('journal_mode'),
        synchronous: await read('synchronous'),
        foreignKeys: await read('foreign_keys'),
        busyTimeout: await read('busy_timeout'),
        mmapBytes: await read('mmap_size'),
      }
    }
    const expected = {
      journal: 'wal',
      synchronous: 1,
      foreignKeys: 1,
      busyTimeout: 1_234,
      mmapBytes: 1024 ** 3,
    }
    const first = await client.transaction('deferred')
    const second = await client.transaction('deferred')
    expect(await pragmas(first)).toEqual(expected)
    expect(await pragmas(second)).toEqual(expected)
    expect(await pragmas(client)).toEqual(expected)
    await first.commit()
    await second.commit()
  })

  test('openDatabase serves plain file URLs with ours, synchronous as configured', async () => {
    const path = freshPath()
    const normal = openDatabase({ url: `file:${path}` })
    cleanups.push(() => normal.$client.close())
    expect(normal.$client).toBeInstanceOf(NativeClient)
    expect((await normal.$client.execute('PRAGMA synchronous')).rows[0]?.[0]).toBe(1)
    const full = openDatabase({ url: `file:${path}`, synchronous: 'FULL' })
    cleanups.push(() => full.$client.close())
    expect((await full.$client.execute('PRAGMA synchronous')).rows[0]?.[0]).toBe(2)
    const memory = openDatabase({ url: 'file::memory:' })
    cleanups.push(() => memory.$client.close())
    expect(memory.$client).not.toBeInstanceOf(NativeClient)
  })

  test("another client's schema change shows in the columns of a statement kept from before it", async () => {
    // (The original, compiling afresh, reports the old columns here: SQLite learns of the change
    // only when the statement runs, after the columns were read.)
    const path = freshPath()
    const client = opened(ours, path)
    await client.executeMultiple("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada');")
    expect((await client.execute('SELECT * FROM people')).columns).toEqual(['name'])
    const other = opened(ours, path)
    await other.execute('ALTER TABLE people ADD COLUMN age INTEGER')
    const { columns, rows } = await client.execute('SELECT * FROM people')
    expect(columns).toEqual(['name', 'age'])
    expect(Object.keys(rows[0] ?? {})).toEqual(['name', 'age'])
  })

  test('a statement is compiled once per connection and kept, at most as many as configured', async () => {
    const client = createNativeClient({
      path: freshPath(),
      busyTimeoutMs: 100,
      synchronous: 'NORMAL',
      statementsPerConnection: 4,
    })
    cleanups.push(() => client.close())
    const prepare = vi.spyOn(Database.prototype, 'prepare')
    cleanups.push(() => prepare.mockRestore())
    for (let i = 0; i < 5; i++)
      expect((await client.execute({ sql: 'SELECT ? AS n', args: [i] })).rows[0]?.n).toBe(i)
    expect(prepare).toHaveBeenCalledTimes(1)

    for (let i = 0; i < 10; i++) expect((await client.execute(`SELECT ${i} AS n`)).rows[0]?.n).toBe(i)
    expect(Math.max(...client.statementCounts())).toBe(4)
    // The first was dropped long ago and is compiled again, with the right answer.
    prepare.mockClear()
    expect((await client.execute({ sql: 'SELECT ? AS n', args: [9] })).rows[0]?.n).toBe(9)
    expect(prepare).toHaveBeenCalledTimes(1)
    expect(Math.max(...client.statementCounts())).toBe(4)
  })
})
