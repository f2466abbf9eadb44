import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startSqld } from '../fixtures/sqld'

/**
 * The whole server (server/app.ts) on an embedded replica of a real sqld, as a worker runs it, while
 * the person's own write came through another replica: a sync of this one that fails is no error
 * (docs/decisions/051-a-failed-sync-is-not-an-error.md). It is tried again; when it keeps failing
 * the request reads from the primary, through the router and the doors ahead of it alike; a write
 * whose own sync fails still reaches the person's next request; and only a primary out of reach
 * answers 503, never 500.
 */

const sqld = await startSqld()
const folder = mkdtempSync(join(tmpdir(), 'failed-syncs-'))
// Set before any app module reads the environment: the app's database is a replica of this sqld,
// with a long interval, so only the syncs the app asks for bring another replica's writes.
process.env.DATABASE_URL = `file:${join(folder, 'app.db')}`
process.env.DATABASE_SYNC_URL = sqld.url
process.env.DATABASE_SYNC_INTERVAL_SECONDS = '3600'

const { database, openDatabase } = await import('~/db/client.server')
const { migrateDatabase } = await import('~/db/migrate.server')
const { servingRequest, syncReplica } = await import('~/db/replicas.server')
const { UNAVAILABLE_MESSAGE } = await import('~/db/unavailable.server')
const { env } = await import('~/env.server')
const { catchUpWithOwnWrites, OWN_WRITES_COOKIE, rememberOwnWrites } = await import(
  '~/auth/own-writes.server'
)
const { CSRF_HEADER, issueCsrfToken } = await import('~/auth/csrf.server')
const { tasks } = await import('~/db/schema')
const { SESSION_COOKIE } = await import('~/auth/session-cookie.server')
const { createSession, toSessionUser } = await import('~/services/sessions.server')
const { createTask: createTaskAs } = await import('~/services/tasks/writes.server')
const { eventStreams } = await import('~/streams/event-streams.server')
const { createApp } = await import('../../server/app')
const { createTask, createUser } = await import('../helpers/factories')

// The primary has the schema before the test setup migrates the app's replica, which syncs it.
const primary = openDatabase({ url: sqld.url })
await migrateDatabase(primary)

type Database = typeof primary

let elsewhere: Database
let server: Server
let origin = ''
let sessionCookie = ''
let csrfToken = ''
let userId = ''
let person: ReturnType<typeof toSessionUser>
/** How many of the app's next syncs fail, and how many it tried. */
let failuresLeft = 0
let syncsTried = 0

beforeAll(async () => {
  elsewhere = openDatabase({
    url: `file:${join(folder, 'elsewhere.db')}`,
    syncUrl: sqld.url,
    syncIntervalSeconds: 3600,
  })
  await migrateDatabase(elsewhere)
  const user = await createUser(primary)
  userId = user.id
  person = toSessionUser(user)
  const session = await createSession(primary, userId)
  sessionCookie = `${SESSION_COOKIE}=${encodeURIComponent(session.token)}`
  csrfToken = issueCsrfToken(`session:${session.id}`)
  // Both replicas know the person and the session, so no lookup of an unknown one syncs by the way.
  await syncReplica(elsewhere)
  await syncReplica(database())
  const client = database().$client
  const sync = client.sync.bind(client)
  client.sync = () => {
    syncsTried++
    if (failuresLeft <= 0) return sync()
    failuresLeft--
    return Promise.reject(new Error('Replication(connection reset by the primary)'))
  }
  const clientDir = join(folder, 'client')
  mkdirSync(join(clientDir, 'assets'), { recursive: true })
  server = createServer(createApp({ ...env(), LOG_REQUESTS: false }, { clientDir }))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  eventStreams().close()
  server.closeAllConnections()
  server.close()
  for (const db of [primary, elsewhere]) db.$client.close()
  await sqld.stop({ kill: true })
  await sqld.close()
  rmSync(folder, { recursive: true, force: true })
})

/** A task the person makes through another replica, and the cookie that carries its position. */
async function writtenElsewhere() {
  const { result: task, cookie } = await rememberOwnWrites(
    () =>
      createTaskAs(elsewhere, person, {
        text: 'Mine',
        priority: 'medium',
        status: 'Not Started',
        hrs: 1,
        isPublic: false,
        sharedWith: [],
      }),
    elsewhere,
  )
  expect(cookie).toBeDefined()
  return { task, wrote: cookie?.split(';')[0] ?? '' }
}

const taskInput = (taskId: string) => encodeURIComponent(JSON.stringify({ json: { taskId } }))

function getTask(taskId: string, wrote: string) {
  return fetch(`${origin}/api/rpc/task/get?data=${taskInput(taskId)}`, {
    headers: { Cookie: `${sessionCookie}; ${wrote}` },
  })
}

/** Writes a task through another replica and reads it back through the app, `times` over. */
async function writeAndReadBack(times: number) {
  for (let n = 0; n < times; n++) {
    const { task, wrote } = await writtenElsewhere()
    const answer = await getTask(task.id, wrote)
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { json: { text: string } }).json.text).toBe(task.text)
  }
}

test('one failed sync is tried again: the read finds the person’s own write, and so do the next ones', async () => {
  failuresLeft = 1
  syncsTried = 0
  await writeAndReadBack(1)
  expect(syncsTried).toBe(2)
  await writeAndReadBack(3)
  expect(syncsTried).toBe(5)
})

test('a sync that keeps failing: the reads that need it come from the primary, which has the write', async () => {
  failuresLeft = Number.POSITIVE_INFINITY
  syncsTried = 0
  await writeAndReadBack(1)
  // Three tries, then none for a few seconds: the next reads go to the primary at once.
  expect(syncsTried).toBe(3)
  await writeAndReadBack(3)
  expect(syncsTried).toBe(3)
  failuresLeft = 0
})

test('a sync that keeps failing: the comment stream of a task just made opens, from the primary', async () => {
  failuresLeft = Number.POSITIVE_INFINITY
  const { task, wrote } = await writtenElsewhere()
  const stream = await fetch(`${origin}/api/events/comments?taskId=${task.id}`, {
    method: 'HEAD',
    headers: { Cookie: `${sessionCookie}; ${wrote}` },
  })
  expect(stream.status).toBe(200)
  failuresLeft = 0
})

test('a sync that keeps failing: a poll with the list’s old ETag gets the list with the new task, not 304', async () => {
  const list = `${origin}/api/rpc/task/getAll?data=${encodeURIComponent(JSON.stringify({ json: {} }))}`
  const before = (await fetch(list, { headers: { Cookie: sessionCookie } })).headers.get('ETag') ?? ''
  expect(before).not.toBe('')
  failuresLeft = Number.POSITIVE_INFINITY
  const { task, wrote } = await writtenElsewhere()
  const poll = await fetch(list, {
    headers: { Cookie: `${sessionCookie}; ${wrote}`, 'If-None-Match': before },
  })
  expect(poll.status).toBe(200)
  expect(await poll.text()).toContain(task.id)
  failuresLeft = 0
})

test('a session made through another instance while syncs fail is found on the primary, not signed out', async () => {
  failuresLeft = Number.POSITIVE_INFINITY
  const { token } = await createSession(primary, userId)
  const task = await createTask(primary, { userId })
  const answer = await fetch(`${origin}/api/rpc/task/get?data=${taskInput(task.id)}`, {
    headers: { Cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` },
  })
  expect(answer.status).toBe(200)
  expect(((await answer.json()) as { json: { text: string } }).json.text).toBe(task.text)
  failuresLeft = 0
})

test('a write while syncs fail carries an unknown position: the next request syncs before it reads', async () => {
  failuresLeft = Number.POSITIVE_INFINITY
  const created = await fetch(`${origin}/api/rpc/task/create`, {
    method: 'POST',
    headers: { Cookie: sessionCookie, [CSRF_HEADER]: csrfToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ json: { text: 'Written while syncs fail' } }),
  })
  expect(created.status).toBe(200)
  const { id } = ((await created.json()) as { json: { id: string } }).json
  const wrote = created.headers.getSetCookie().find((cookie) => cookie.startsWith(`${OWN_WRITES_COOKIE}=`))
  expect(wrote?.split(';')[0]).toBe(`${OWN_WRITES_COOKIE}=unknown`)
  // Here the sync still fails: the read comes from the primary.
  expect((await getTask(id, `${OWN_WRITES_COOKIE}=unknown`)).status).toBe(200)
  // On another replica the sync works: the write is there, and the cookie says where it is now.
  const position = await servingRequest(() => catchUpWithOwnWrites(`${OWN_WRITES_COOKIE}=unknown`, elsewhere))
  expect(position).toMatch(new RegExp(`^${OWN_WRITES_COOKIE}=\\d+;`))
  expect(await elsewhere.select().from(tasks).where(eq(tasks.id, id))).toHaveLength(1)
  failuresLeft = 0
})

test('the primary out of reach: a read that needs a sync answers 503 with Retry-After, never 500', async () => {
  const { task, wrote } = await writtenElsewhere()
  await sqld.stop({ kill: true })
  const answer = await getTask(task.id, wrote)
  expect(answer.status).toBe(503)
  expect(answer.headers.get('Retry-After')).toBe('5')
  expect(await answer.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE })
})
