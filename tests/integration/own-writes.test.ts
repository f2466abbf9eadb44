import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { catchUpWithOwnWrites, OWN_WRITES_COOKIE, rememberOwnWrites } from '~/auth/own-writes.server'
import { type Database, openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { readsFromPrimary, servingRequest, syncReplica } from '~/db/replicas.server'
import { tasks } from '~/db/schema'
import { type SqldFixture, startSqld } from '../fixtures/sqld'
import { createTask, createUser } from '../helpers/factories'

/**
 * Read-your-writes across embedded replicas of one real sqld, as two workers or two instances run
 * them (docs/decisions/037-read-your-writes-across-replicas.md): what a request writes through one
 * replica, the person's next request reads on the other, which has not synced on its own.
 */

let sqld: SqldFixture
let folder: string
let primary: Database
let here: Database
let there: Database
/** The requests `there` made to the primary to sync. */
let syncsThere = 0

beforeAll(async () => {
  sqld = await startSqld()
  folder = await mkdtemp(join(tmpdir(), 'own-writes-'))
  primary = openDatabase({ url: sqld.url })
  await migrateDatabase(primary)
  // A long interval: only the syncs the app asks for bring another replica's writes.
  const replica = async (name: string) => {
    const db = openDatabase({
      url: `file:${join(folder, `${name}.db`)}`,
      syncUrl: sqld.url,
      syncIntervalSeconds: 3600,
    })
    await migrateDatabase(db)
    return db
  }
  here = await replica('here')
  there = await replica('there')
  const sync = there.$client.sync.bind(there.$client)
  there.$client.sync = () => {
    syncsThere++
    return sync()
  }
})

afterAll(async () => {
  for (const db of [primary, here, there]) db.$client.close()
  await sqld.stop({ kill: true })
  await sqld.close()
  await rm(folder, { recursive: true, force: true })
})

const taskOn = async (db: Database, id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]

/** The Cookie header a browser sends back after `Set-Cookie: <setCookie>`. */
const cookieFrom = (setCookie: string | undefined) => setCookie?.split(';')[0]

async function writeHere() {
  const user = await createUser(primary)
  const { result: task, cookie } = await rememberOwnWrites(() => createTask(here, { userId: user.id }), here)
  return { task, cookie }
}

test('a write through one replica is read on the other once the next request catches up with it', async () => {
  const { task, cookie } = await writeHere()
  expect(cookie).toMatch(
    new RegExp(`^${OWN_WRITES_COOKIE}=\\d+; Path=/; Max-Age=3600; SameSite=Lax; HttpOnly`),
  )
  expect(await taskOn(here, task.id)).toBeDefined()
  expect(await taskOn(there, task.id)).toBeUndefined()

  syncsThere = 0
  expect(await catchUpWithOwnWrites(cookieFrom(cookie), there)).toBeUndefined()
  expect((await taskOn(there, task.id))?.text).toBe(task.text)
  expect(syncsThere).toBe(1)
  // Now there: the next request with the same position costs no request to the primary.
  expect(await catchUpWithOwnWrites(cookieFrom(cookie), there)).toBeUndefined()
  expect(syncsThere).toBe(1)
})

test('requests that catch up at once share one sync', async () => {
  const { task, cookie } = await writeHere()
  syncsThere = 0
  await Promise.all(Array.from({ length: 10 }, () => catchUpWithOwnWrites(cookieFrom(cookie), there)))
  expect(syncsThere).toBe(1)
  expect(await taskOn(there, task.id)).toBeDefined()
})

test('a request that only read carries no position', async () => {
  const { task } = await writeHere()
  const { result, cookie } = await rememberOwnWrites(() => taskOn(here, task.id), here)
  expect(result?.id).toBe(task.id)
  expect(cookie).toBeUndefined()
})

test('a made-up position costs one sync and the cookie is dropped; a malformed one costs none', async () => {
  syncsThere = 0
  const dropped = await catchUpWithOwnWrites(`${OWN_WRITES_COOKIE}=999999999999999`, there)
  expect(dropped).toMatch(new RegExp(`^${OWN_WRITES_COOKIE}=; Path=/; Max-Age=0`))
  expect(syncsThere).toBe(1)
  expect(await catchUpWithOwnWrites(`${OWN_WRITES_COOKIE}=1e99`, there)).toMatch(/Max-Age=0/)
  expect(await catchUpWithOwnWrites(`${OWN_WRITES_COOKIE}=9999999999999999`, there)).toMatch(/Max-Age=0/)
  expect(syncsThere).toBe(1)
})

test('a sync waits for a transaction holding the replica’s one connection, instead of failing', async () => {
  const user = await createUser(primary)
  let isInside: () => void = () => {}
  const inside = new Promise<void>((resolve) => {
    isInside = resolve
  })
  const transaction = here.transaction(async (tx) => {
    await tx.insert(tasks).values({ text: 'In a transaction', userId: user.id, workspaceId: user.id })
    isInside()
    await new Promise((resolve) => setTimeout(resolve, 100))
  })
  await inside
  await expect(syncReplica(here)).resolves.toBe(true)
  await transaction
})

test('a database that is no replica: no position after a write, nothing to catch up with', async () => {
  const user = await createUser(primary)
  const { cookie } = await rememberOwnWrites(() => createTask(primary, { userId: user.id }), primary)
  expect(cookie).toBeUndefined()
  expect(await catchUpWithOwnWrites(`${OWN_WRITES_COOKIE}=999999999999999`, primary)).toBeUndefined()
})

test('the primary out of reach: the request is sent to the primary, and the next ones do not wait', async () => {
  const { cookie } = await writeHere()
  await sqld.stop({ kill: true })
  /** Whether a request with the cookie, once caught up, reads from the primary. */
  const sentToPrimary = () =>
    servingRequest(async () => {
      expect(await catchUpWithOwnWrites(cookieFrom(cookie), there)).toBeUndefined()
      return readsFromPrimary()
    })
  // The driver's sync blocks until libSQL gives up on the primary, about 3 s: once, not tried again.
  let started = Date.now()
  syncsThere = 0
  expect(await sentToPrimary()).toBe(true)
  expect(Date.now() - started).toBeLessThan(5_000)
  expect(syncsThere).toBe(1)
  started = Date.now()
  syncsThere = 0
  for (let n = 0; n < 5; n++) expect(await sentToPrimary()).toBe(true)
  expect(syncsThere).toBe(0)
  expect(Date.now() - started).toBeLessThan(100)
})
