import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { openEventSource, readRawStream } from '../helpers/sse'
import { type ApiClient, signUpThroughApi } from './api-client'
import { type Running, startServer, stopServer } from './app-process'
import { expect, test } from './fixtures'

/**
 * The built server as `WEB_CONCURRENCY=2` runs it on one machine: a primary and two workers on
 * one port and one database file (server/cluster.ts). Seen from outside: a SIGTERM drains every
 * worker, a worker killed under write load loses no acknowledged write and is replaced, and an
 * event committed by one worker reaches a stream served by the other without waiting for a poll.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

const PASSWORD = 'correct horse battery staple'

async function startCluster(folder: string, env: Record<string, string> = {}) {
  const server = await startServer({
    WEB_CONCURRENCY: '2',
    DATABASE_URL: `file:${join(folder, 'app.db')}`,
    ...env,
  })
  await expect.poll(() => listeningWorkers(server).length, { timeout: 30_000 }).toBe(2)
  return server
}

/** The workers that announced themselves, in order: "… listening on …, worker <pid>". */
function listeningWorkers(server: Running) {
  return [...server.output().matchAll(/listening on .*, worker (\d+)/g)].map((match) => Number(match[1]))
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function signUp(server: Running) {
  const email = `ada-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`
  const client = await signUpThroughApi(server.origin, { name: 'Ada', email, password: PASSWORD })
  return { client: { ...client, port: Number(new URL(server.origin).port) }, token: await client.csrf() }
}

/**
 * task.create over /api/rpc; `fresh` asks for a connection of its own (so a worker of its own).
 * A request gives up after 10 s, as browsers and proxies do: a connection the primary was handing
 * to a worker at the moment it was killed is never answered.
 */
function createTask(
  { client, token }: { client: ApiClient & { port: number }; token: string },
  text: string,
  { fresh = false } = {},
) {
  const body = JSON.stringify({ json: { text } })
  return new Promise<string>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: client.port,
        path: '/api/rpc/task/create',
        method: 'POST',
        localAddress: client.ip,
        agent: fresh ? false : undefined,
        timeout: 10_000,
        headers: {
          Cookie: client.cookieHeader(),
          'x-csrf-token': token,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let answer = ''
        res.setEncoding('utf8').on('data', (chunk: string) => {
          answer += chunk
        })
        res.on('end', () =>
          res.statusCode === 200
            ? resolve((JSON.parse(answer) as { json: { id: string } }).json.id)
            : reject(new Error(`task.create answered ${res.statusCode}`)),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')))
    req.on('error', reject)
    req.end(body)
  })
}

async function taskIdsIn(folder: string) {
  const db = createClient({ url: `file:${join(folder, 'app.db')}` })
  try {
    const result = await db.execute('SELECT id FROM tasks')
    return new Set(result.rows.map((row) => String(row.id)))
  } finally {
    db.close()
  }
}

test('SIGTERM to the primary drains every worker: a request in flight is answered, streams end, exit 0', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'cluster-drain-'))
  const server = await startCluster(folder)
  try {
    const { client, token } = await signUp(server)
    const stream = await readRawStream(`${server.origin}/api/events/tasks`, { cookie: client.cookieHeader() })
    await stream.waitFor('ready', undefined, 5000)

    // A task.create whose body is still on its way when the signal arrives.
    const body = JSON.stringify({ json: { text: 'Sent across a shutdown' } })
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk
    })
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.write(
      `POST /api/rpc/task/create HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\n` +
        `Cookie: ${client.cookieHeader()}\r\nx-csrf-token: ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    )
    await new Promise((resolve) => setTimeout(resolve, 200))

    server.child.kill('SIGTERM')
    await expect.poll(() => server.output().match(/SIGTERM: finishing in-flight/g)?.length ?? 0).toBe(2)
    socket.end(body.slice(10))
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    const id = (JSON.parse(answer.slice(answer.indexOf('{'))) as { json: { id: string } }).json.id

    await stream.ended
    expect(await server.exited).toBe(0)
    expect(server.output()).toContain('SIGTERM: every worker finishes its in-flight requests')
    expect(server.output()).not.toContain('Forced exit')
    expect(await taskIdsIn(folder)).toContain(id)
  } finally {
    if (server.child.exitCode === null) await stopServer(server)
    rmSync(folder, { recursive: true, force: true })
  }
})

test('kill -9 of a worker under write load loses no acknowledged write, and the primary replaces it', async () => {
  test.setTimeout(120_000)
  const folder = mkdtempSync(join(tmpdir(), 'cluster-kill-'))
  const server = await startCluster(folder)
  try {
    const [victim, survivor] = listeningWorkers(server) as [number, number]
    const writers = await Promise.all([signUp(server), signUp(server), signUp(server), signUp(server)])

    const acknowledged: string[] = []
    let failed = 0
    let isWriting = true
    const load = writers.map(async (writer, index) => {
      for (let n = 0; isWriting; n++) {
        try {
          // Every fourth write on a new connection, so writes keep reaching both workers.
          acknowledged.push(await createTask(writer, `Write ${index}.${n}`, { fresh: n % 4 === 0 }))
        } catch {
          // Cut off with its worker: never acknowledged, so it may or may not have committed.
          failed += 1
        }
      }
    })

    await expect.poll(() => acknowledged.length, { timeout: 15_000 }).toBeGreaterThan(40)
    process.kill(victim, 'SIGKILL')
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toMatch(new RegExp(`Worker ${victim} ended \\(SIGKILL\\); started worker \\d+ in its place`))
    await expect.poll(() => listeningWorkers(server).length, { timeout: 30_000 }).toBe(3)
    const replacement = listeningWorkers(server).at(-1) as number
    const beforeReplacement = acknowledged.length
    // The replacement and the survivor both keep acknowledging writes.
    await expect.poll(() => acknowledged.length, { timeout: 15_000 }).toBeGreaterThan(beforeReplacement + 40)
    isWriting = false
    await Promise.all(load)

    expect(isAlive(victim)).toBe(false)
    expect(isAlive(survivor)).toBe(true)
    expect(isAlive(replacement)).toBe(true)
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200)

    await stopServer(server)
    expect(await server.exited).toBe(0)
    const stored = await taskIdsIn(folder)
    const lost = acknowledged.filter((id) => !stored.has(id))
    expect(lost, `${failed} writes failed with the worker; acknowledged ones must all be stored`).toEqual([])
  } finally {
    if (server.child.exitCode === null) await stopServer(server)
    rmSync(folder, { recursive: true, force: true })
  }
})

test('an event committed by one worker reaches a stream on the other at once, not at the next poll', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'cluster-nudge-'))
  // A poll a minute apart: only the nudge between workers can deliver within seconds.
  const server = await startCluster(folder, { EVENT_STREAM_POLL_MS: '60000' })
  try {
    const writer = await signUp(server)
    const stream = openEventSource(`${server.origin}/api/events/tasks`, writer.client.cookieHeader())
    await stream.waitFor('ready', undefined, 5000)

    // Each write on a connection of its own: the primary hands connections to the workers in
    // turn, so these reach both the stream's worker and the other one.
    for (let n = 0; n < 6; n++) {
      const id = await createTask(writer, `Seen everywhere ${n}`, { fresh: true })
      await stream.waitFor('task-created', (event) => event.data.taskId === id, 10_000)
    }
    stream.close()
  } finally {
    await stopServer(server)
    rmSync(folder, { recursive: true, force: true })
  }
})

test('workers that cannot start stop the primary with exit 1, instead of being restarted forever', async () => {
  const taken = createNetServer()
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
  const address = taken.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const folder = mkdtempSync(join(tmpdir(), 'cluster-port-taken-'))
  try {
    const server = await startServer({
      WEB_CONCURRENCY: '2',
      PORT: String(port),
      DATABASE_URL: `file:${join(folder, 'app.db')}`,
    })
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(/Worker \d+ ended \(exit code \d+\) before it listened; stopping/)
    expect(server.output()).not.toContain('in its place')
  } finally {
    taken.close()
    rmSync(folder, { recursive: true, force: true })
  }
})
