import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { findSessionAnywhere } from '~/auth/context.server'
import { type Database, openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { appendEvent, eventLogHead } from '~/events/log.server'
import { createSession, findSession } from '~/services/sessions.server'
import { type Broadcaster, createBroadcaster } from '~/streams/broadcaster.server'
import { EventStream } from '~/streams/event-stream.server'
import { follow } from '~/streams/feeds.server'
import { type SqldFixture, startSqld } from '../fixtures/sqld'
import { createUser } from '../helpers/factories'
import { readRawStream } from '../helpers/sse'

/**
 * An embedded replica of a real sqld, as an instance on one runs it. A stream client that was
 * connected to an instance further along sends a Last-Event-ID this replica has not reached: it
 * must never be told to reset for that; the replica syncs and serves on from the client's cursor.
 * A person signed in through another instance is not signed out here before the next sync.
 */

let sqld: SqldFixture
let folder: string
let primary: Database
let replica: Database
let broadcaster: Broadcaster
let server: Server
let origin: string

const everything = { decide: () => 'send' as const }

beforeAll(async () => {
  sqld = await startSqld()
  folder = await mkdtemp(join(tmpdir(), 'replica-streams-'))
  primary = openDatabase({ url: sqld.url })
  await migrateDatabase(primary)
  // A long interval: only the broadcaster's own syncs bring the primary's events here.
  replica = openDatabase({
    url: `file:${join(folder, 'replica.db')}`,
    syncUrl: sqld.url,
    syncIntervalSeconds: 3600,
  })
  await migrateDatabase(replica)
  broadcaster = createBroadcaster(replica, { pollMs: 50 })
  server = createServer((req, res) => {
    const stream = new EventStream(res, { retryMs: 1000 })
    stream.open()
    const cursor = Number(req.headers['last-event-id'])
    void follow(replica, broadcaster, stream, everything, cursor).then((unsubscribe) =>
      res.once('close', unsubscribe),
    )
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  broadcaster.stop()
  server.closeAllConnections()
  server.close()
  primary.$client.close()
  replica.$client.close()
  // sqld waits for a replica's replication stream to end on SIGTERM; a kill is enough here.
  await sqld.stop({ kill: true })
  await sqld.close()
  await rm(folder, { recursive: true, force: true })
})

const written = (n: number) =>
  appendEvent(primary, { topic: 'tasks', type: 'task-updated', taskId: `t${n}`, payload: { n } })

test('a cursor the replica has not reached yet is caught up to, not reset', async () => {
  for (const n of [1, 2, 3]) await written(n)
  const head = await eventLogHead(primary)
  expect(await eventLogHead(replica)).toBeLessThan(head)

  const stream = await readRawStream(`${origin}/api/events/tasks`, { lastEventId: head })
  const ready = await stream.waitFor('ready')
  expect(ready.id).toBe(head)
  await written(4)
  const next = await stream.waitFor('task-updated')
  expect(next.id).toBe(head + 1)
  expect(stream.events.map((event) => event.type)).toEqual(['ready', 'task-updated'])
  stream.abort()
})

test('a cursor still ahead after syncing is kept: events after it flow, and no reset', async () => {
  const head = await eventLogHead(primary)
  const stream = await readRawStream(`${origin}/api/events/tasks`, { lastEventId: head + 2 })
  expect((await stream.waitFor('ready')).id).toBe(head + 2)
  for (const n of [5, 6, 7]) await written(n)
  const third = await stream.waitFor('task-updated')
  // The two the client already had are not sent again.
  expect(third.id).toBe(head + 3)
  expect(stream.events.map((event) => event.type)).toEqual(['ready', 'task-updated'])
  stream.abort()
})

test('a session made through another instance is found on a replica that has not synced yet', async () => {
  const user = await createUser(primary)
  const { token } = await createSession(primary, user.id)
  expect(await findSession(replica, token)).toBeNull()
  expect((await findSessionAnywhere(token, replica))?.user.id).toBe(user.id)
  expect(await findSessionAnywhere('not-a-session', replica)).toBeNull()
})

test('a write through the replica is on the replica at once (read your writes)', async () => {
  await appendEvent(replica, { topic: 'tasks', type: 'task-updated', taskId: 'mine', payload: {} })
  expect(await eventLogHead(replica)).toBe(await eventLogHead(primary))
})
