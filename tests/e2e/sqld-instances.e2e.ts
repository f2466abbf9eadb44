import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
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

/**
 * One request on a connection of its own (so the cluster's primary may hand it to either
 * worker), with one cookie jar for every instance, as a browser keeps one for the site.
 */
function freshRequest(
  origin: string,
  jar: ApiClient,
  {
    method = 'GET',
    path,
    body,
    headers = {},
  }: { method?: string; path: string; body?: string; headers?: Record<string, string> },
) {
  return new Promise<{ status: number; body: string; etag?: string }>((resolve, reject) => {
    const url = new URL(origin)
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        agent: false,
        localAddress: jar.ip,
        headers: { Cookie: jar.cookieHeader(), ...headers },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';')
            const index = pair.indexOf('=')
            const value = pair.slice(index + 1)
            if (value === '' || /max-age=0\b/i.test(line)) jar.cookies.delete(pair.slice(0, index))
            else jar.cookies.set(pair.slice(0, index), value)
          }
          resolve({ status: res.statusCode ?? 0, body: text, etag: res.headers.etag })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

test('a person reads their own write whichever worker or instance answers the next request', async () => {
  // Three processes boot, on two cores shared with the rest of the run.
  test.setTimeout(90_000)
  const sqld = await startSqld()
  const folder = mkdtempSync(join(tmpdir(), 'read-own-writes-'))
  const servers: Running[] = []
  try {
    // Replicas that would not sync on their own during the test: only catching up can show the
    // write. Instances of one deployment share their secret, so a CSRF token is good at each.
    const replica = (name: string, env: Record<string, string> = {}) =>
      startServer({
        DATABASE_URL: `file:${join(folder, `${name}.db`)}`,
        DATABASE_SYNC_URL: sqld.url,
        DATABASE_SYNC_INTERVAL_SECONDS: '3600',
        SESSION_SECRET: 'one secret for every instance of this deployment',
        ...env,
      })
    const cluster = await replica('cluster', { WEB_CONCURRENCY: '2' })
    servers.push(cluster)
    // The cluster's primary has migrated once it forks: the other instance may boot meanwhile.
    await expect.poll(() => cluster.output(), { timeout: 30_000 }).toContain('starting 2 workers')
    const other = await replica('other')
    servers.push(other)
    await expect.poll(() => cluster.output().match(/listening on/g)?.length ?? 0, { timeout: 30_000 }).toBe(2)
    await waitUntilListening(other)

    const email = `lin-${Date.now()}@example.test`
    const jar = await signUpThroughApi(cluster.origin, { name: 'Lin', email, password })
    const token = await jar.csrf()
    // Every process knows the session already, so no lookup of an unknown one syncs by the way.
    for (const origin of [cluster.origin, cluster.origin, cluster.origin, other.origin]) {
      expect((await freshRequest(origin, jar, { path: '/api/csrf' })).status).toBe(200)
    }

    // Read back by a route (task.get), by the versioned reads' door (task.getAll polled with the
    // ETag of the list as it was before the write: a replica behind the write answers 304), or by
    // the event streams' door (a task's comment stream: 404 on a replica that lacks the task).
    const getAll = `/api/rpc/task/getAll?data=${encodeURIComponent(JSON.stringify({ json: {} }))}`
    let listEtag = ''
    const pairs = [
      ...Array.from({ length: 10 }, () => [cluster.origin, cluster.origin, 'task.get'] as const),
      ...Array.from({ length: 10 }, () => [cluster.origin, cluster.origin, 'task.getAll'] as const),
      ...Array.from({ length: 2 }, () => [cluster.origin, other.origin, 'task.get'] as const),
      ...Array.from({ length: 2 }, () => [cluster.origin, other.origin, 'comment stream'] as const),
      ...Array.from({ length: 2 }, () => [other.origin, cluster.origin, 'task.get'] as const),
      ...Array.from({ length: 2 }, () => [other.origin, cluster.origin, 'comment stream'] as const),
    ]
    const found: string[] = []
    for (const [writeTo, readFrom, read] of pairs) {
      if (read === 'task.getAll' && listEtag === '') {
        listEtag = (await freshRequest(writeTo, jar, { path: getAll })).etag ?? ''
        expect(listEtag).not.toBe('')
      }
      const created = await freshRequest(writeTo, jar, {
        method: 'POST',
        path: '/api/rpc/task/create',
        body: JSON.stringify({ json: { text: 'Mine' } }),
        headers: { 'Content-Type': 'application/json', 'x-csrf-token': token },
      })
      expect(created.status).toBe(200)
      const { id } = (JSON.parse(created.body) as { json: { id: string } }).json
      if (read === 'task.get') {
        const data = encodeURIComponent(JSON.stringify({ json: { taskId: id } }))
        const answer = await freshRequest(readFrom, jar, { path: `/api/rpc/task/get?data=${data}` })
        found.push(answer.status === 200 ? 'found' : `${read} ${answer.status}`)
      } else if (read === 'comment stream') {
        // The event streams' door looks the task up before it opens its comment stream.
        const path = `/api/events/comments?taskId=${id}`
        const answer = await freshRequest(readFrom, jar, { method: 'HEAD', path })
        found.push(answer.status === 200 ? 'found' : `${read} ${answer.status}`)
      } else {
        const answer = await freshRequest(readFrom, jar, {
          path: getAll,
          headers: { 'If-None-Match': listEtag },
        })
        found.push(answer.status === 200 && answer.body.includes(id) ? 'found' : `${read} ${answer.status}`)
        listEtag = answer.etag ?? ''
      }
    }
    expect(found).toEqual(pairs.map(() => 'found'))
  } finally {
    await Promise.all(servers.map((server) => (server.child.exitCode === null ? stopServer(server) : null)))
    await sqld.stop({ kill: true })
    await sqld.close()
    rmSync(folder, { recursive: true, force: true })
  }
})
