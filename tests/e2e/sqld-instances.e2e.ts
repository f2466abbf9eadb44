import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SqldFixture, startSqld } from '../fixtures/sqld'
import { openEventSource } from '../helpers/sse'
import { type ApiClient, clientFrom, signUpThroughApi } from './api-client'
import { type Running, startServer, stopServer, waitUntilListening } from './app-process'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'

/**
 * The built server against the real libSQL server, `sqld`, as several machines would run it: one
 * instance on the primary itself and two on embedded replicas of it (a local file each, synced
 * from the primary, writes forwarded to it). Then the primary dies (SIGKILL) under the app and
 * comes back.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

const password = 'correct horse battery staple'

/** A client of another instance carrying the same session: the database they share knows it. */
function sameCookies(client: ApiClient, origin: string) {
  const other = clientFrom(origin)
  for (const [name, value] of client.cookies) other.cookies.set(name, value)
  return other
}

async function taskThrough(origin: string, client: ApiClient, taskId: string) {
  const data = encodeURIComponent(JSON.stringify({ json: { taskId } }))
  return fetch(`${origin}/api/rpc/task/get?data=${data}`, { headers: { Cookie: client.cookieHeader() } })
}

test('instances on a primary and on two replicas: events cross them, a replica reads its own writes', async () => {
  const sqld = await startSqld()
  const folder = mkdtempSync(join(tmpdir(), 'replicas-'))
  const servers: Running[] = []
  try {
    const onPrimary = await startServer({ DATABASE_URL: sqld.url })
    servers.push(onPrimary)
    // The first boot applies the migrations on the primary; the replicas sync them at theirs.
    await waitUntilListening(onPrimary)
    const replicas = await Promise.all(
      [1, 2].map((n) =>
        startServer({ DATABASE_URL: `file:${join(folder, `replica-${n}.db`)}`, DATABASE_SYNC_URL: sqld.url }),
      ),
    )
    servers.push(...replicas)
    await Promise.all(replicas.map(waitUntilListening))
    const [b, c] = replicas as [Running, Running]

    // Signing up on a replica writes through to the primary; its session cookie works on that
    // replica at once, so the replica read back what it wrote.
    const email = `ada-${Date.now()}@example.test`
    const client = await signUpThroughApi(b.origin, { name: 'Ada', email, password })
    const person = { name: 'Ada', email, client }
    const onB = await createTaskThroughApi(person, { text: 'Made on replica B' })
    const readBack = await taskThrough(b.origin, client, onB.id)
    expect(readBack.status).toBe(200)
    expect(((await readBack.json()) as { json: { text: string } }).json.text).toBe('Made on replica B')

    // Replica C has not synced yet, but a session it does not know makes it sync and look again:
    // the person is signed in there too, and sees the task.
    expect((await taskThrough(c.origin, client, onB.id)).status).toBe(200)
    // A change made on the primary's instance reaches a stream on replica C, whose broadcaster
    // syncs before it reads the log.
    const onC = openEventSource(`${c.origin}/api/events/tasks`, client.cookieHeader())
    await onC.waitFor('ready', undefined, 5000)
    const started = Date.now()
    const { id } = await createTaskThroughApi(
      { ...person, client: sameCookies(client, onPrimary.origin) },
      { text: 'Made on the primary' },
    )
    const created = await onC.waitFor('task-created', (event) => event.data.taskId === id, 5000)
    expect(created.data.taskId).toBe(id)
    expect(Date.now() - started).toBeLessThan(2000)
    onC.close()
  } finally {
    await Promise.all(servers.map((server) => (server.child.exitCode === null ? stopServer(server) : null)))
    await sqld.close()
    rmSync(folder, { recursive: true, force: true })
  }
})

test('sqld killed: writes answer 503 with Retry-After at once, and pass again when it is back', async () => {
  let sqld: SqldFixture | undefined
  let app: Running | undefined
  try {
    sqld = await startSqld()
    app = await startServer({ DATABASE_URL: sqld.url })
    await waitUntilListening(app)
    const email = `grace-${Date.now()}@example.test`
    const client = await signUpThroughApi(app.origin, { name: 'Grace', email, password })
    const person = { name: 'Grace', email, client }
    const token = await client.csrf()
    await createTaskThroughApi(person, { text: 'Before the crash' })

    await sqld.stop({ kill: true })
    const started = Date.now()
    const write = await client.post(
      '/api/rpc/task/create',
      { json: { json: { text: 'During the crash' } } },
      { 'x-csrf-token': token },
    )
    expect(write.status).toBe(503)
    expect(write.headers['retry-after']).toBe('5')
    const page = await fetch(`${app.origin}/tasks`, { headers: { Cookie: client.cookieHeader() } })
    expect(page.status).toBe(503)
    expect(page.headers.get('retry-after')).toBe('5')
    expect((await fetch(`${app.origin}/healthz`)).status).toBe(503)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(app.child.exitCode).toBeNull()

    await sqld.restart()
    const { id } = await createTaskThroughApi(person, { text: 'After the restart' })
    expect(id).toBeTruthy()
    expect((await fetch(`${app.origin}/healthz`)).status).toBe(200)
  } finally {
    if (app && app.child.exitCode === null) await stopServer(app)
    await sqld?.close()
  }
})
