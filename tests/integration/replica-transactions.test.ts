import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startSqld } from '../fixtures/sqld'

/**
 * A statement made while a transaction of this process is open (`commitAfterReading`: a mention
 * e-mail, a due reminder, a Stripe event) waits for it to end and then answers, on every kind of
 * database. An embedded replica has one connection, which the transaction holds: there the
 * statement used to fail at once and the request answer 500 (app/db/replicas.server.ts).
 */

const sqld = await startSqld()
const folder = mkdtempSync(join(tmpdir(), 'replica-transactions-'))
// Set before any app module reads the environment: the app's database is a replica of this sqld.
process.env.DATABASE_URL = `file:${join(folder, 'app.db')}`
process.env.DATABASE_SYNC_URL = sqld.url
process.env.DATABASE_SYNC_INTERVAL_SECONDS = '3600'

const { database, openDatabase } = await import('~/db/client.server')
const { migrateDatabase } = await import('~/db/migrate.server')
const { syncReplica } = await import('~/db/replicas.server')
const { commitAfterReading } = await import('~/db/write.server')
const { users } = await import('~/db/schema')
const { env } = await import('~/env.server')
const { SESSION_COOKIE } = await import('~/auth/session-cookie.server')
const { createSession } = await import('~/services/sessions.server')
const { eventStreams } = await import('~/streams/event-streams.server')
const { serveApp } = await import('../helpers/app-server')
const { createUser } = await import('../helpers/factories')

type Database = ReturnType<typeof openDatabase>

const primary = openDatabase({ url: sqld.url })
await migrateDatabase(primary)
const file = openDatabase({ url: `file:${join(folder, 'file.db')}` })
await migrateDatabase(file)

let server: Awaited<ReturnType<typeof serveApp>>

beforeAll(async () => {
  await migrateDatabase(database())
  server = await serveApp({ ...env(), LOG_REQUESTS: false })
})

afterAll(async () => {
  eventStreams().close()
  await server.close()
  for (const db of [primary, file]) db.$client.close()
  await sqld.stop({ kill: true })
  await sqld.close()
  rmSync(folder, { recursive: true, force: true })
})

/**
 * Opens a transaction that reads, then stays open `ms` longer (a pause no transaction of the app
 * makes), and resolves `opened` once it holds the database.
 */
function heldTransaction(db: Database, ms: number) {
  let opened!: () => void
  const isOpen = new Promise<void>((resolve) => {
    opened = resolve
  })
  const done = commitAfterReading(db, async (tx) => {
    const found = await tx.select({ id: users.id }).from(users)
    opened()
    await new Promise((resolve) => setTimeout(resolve, ms))
    return found.length
  })
  return { isOpen, done }
}

test.each([
  ['an embedded replica', () => database()],
  ['a local file', () => file],
  ['a libSQL server over HTTP', () => primary],
])('on %s, a read while a transaction is open waits for it and answers', async (_kind, db) => {
  const user = await createUser(db())
  const held = heldTransaction(db(), 100)
  await held.isOpen
  const read = await db().select({ id: users.id }).from(users).where(eq(users.id, user.id))
  expect(read).toEqual([{ id: user.id }])
  expect(await held.done).toBeGreaterThan(0)
})

test('on an embedded replica, a write, a sync and a second transaction wait for the open one too', async () => {
  const db = database()
  const user = await createUser(db)
  const held = heldTransaction(db, 100)
  await held.isOpen
  const [renamed, synced, second] = await Promise.all([
    db.update(users).set({ name: 'Renamed' }).where(eq(users.id, user.id)).returning({ name: users.name }),
    syncReplica(db),
    heldTransaction(db, 0).done,
  ])
  expect(renamed).toEqual([{ name: 'Renamed' }])
  expect(synced).toBe(true)
  expect(second).toBeGreaterThan(0)
  await held.done
})

test('the whole server on a replica: a request while a transaction is open answers 200, not 500', async () => {
  const db = database()
  const user = await createUser(db)
  const session = await createSession(db, user.id)
  const held = heldTransaction(db, 200)
  await held.isOpen
  const answer = await fetch(
    `${server.origin}/api/rpc/task/getAll?data=${encodeURIComponent(JSON.stringify({ json: {} }))}`,
    { headers: { Cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}` } },
  )
  expect(answer.status).toBe(200)
  await held.done
})
