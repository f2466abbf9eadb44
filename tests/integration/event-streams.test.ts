import { once } from 'node:events'
import { createServer, get, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events } from '~/db/schema'
import { eventLogHead, pruneEvents } from '~/events/log.server'
import { disablePerson, endAllSessions } from '~/services/admin/people.server'
import { toggleReaction } from '~/services/comment-reactions.server'
import { addComment } from '~/services/comments.server'
import { revokeAllSessions, revokeSession, toSessionUser } from '~/services/sessions.server'
import { createTask, deleteTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { removeMember } from '~/services/workspaces/members.server'
import { deleteWorkspace, leaveWorkspace } from '~/services/workspaces/workspaces.server'
import { createEventStreams, type EventStreams } from '~/streams/event-streams.server'
import { signedInBrowser } from '../helpers/auth'
import { createTeamWorkspace, createUser } from '../helpers/factories'
import { openEventSource, readRawStream } from '../helpers/sse'

/**
 * The event streams over real HTTP with a real SSE client: what arrives, in which order, for whom,
 * after a reconnect, and that nothing is left behind when clients leave. The doors are the
 * production ones (app/streams/event-streams.server.ts) on a bare node:http server; the writes are the
 * services', so each event comes from the transaction of its change.
 */

const db = database()
const KEEP_ALIVE_MS = 100
const SESSION_CHECK_MS = 100
let streams: EventStreams
let server: Server
let origin: string

type Person = 'owner' | 'shared' | 'stranger'
const people = {} as Record<Person, ReturnType<typeof toSessionUser>>
const cookies = {} as Record<Person, string>

beforeAll(async () => {
  streams = createEventStreams(db, { keepAliveMs: KEEP_ALIVE_MS, sessionCheckMs: SESSION_CHECK_MS })
  server = createServer((req, res) =>
    streams.handle(req, res, () => {
      res.statusCode = 404
      res.end()
    }),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  for (const person of ['owner', 'shared', 'stranger'] as const) {
    const row = await createUser(db, { name: `Person ${person}` })
    people[person] = toSessionUser(row)
    cookies[person] = (await signedInBrowser(db, row.id)).cookie
  }
})

afterAll(async () => {
  streams.close()
  server.closeAllConnections()
  server.close()
})

const fields = (overrides: Partial<Parameters<typeof createTask>[2]> = {}) => ({
  text: 'A task to watch',
  priority: 'medium' as const,
  status: 'Not Started' as const,
  hrs: 1,
  isPublic: false,
  sharedWith: [],
  ...overrides,
})

async function sharedTask() {
  return createTask(db, people.owner, fields({ sharedWith: [people.shared.email] }))
}

describe('the doors', () => {
  test('refuse what they cannot serve with a clear 4xx', async () => {
    const privateTask = await createTask(db, people.owner, fields())
    const answers = await Promise.all([
      fetch(`${origin}/api/events/tasks`),
      fetch(`${origin}/api/events/comments?taskId=${privateTask.id}`, {
        headers: { Cookie: cookies.stranger },
      }),
      fetch(`${origin}/api/events/comments`, { headers: { Cookie: cookies.owner } }),
      fetch(`${origin}/api/events/tasks?after=abc`, { headers: { Cookie: cookies.owner } }),
      fetch(`${origin}/api/events/tasks`, { method: 'POST', headers: { Cookie: cookies.owner } }),
    ])
    // A POST is no stream request: the door passes it on (here to a stand-in answering 404), and
    // the route refuses it as every mutation, CSRF first (tests/integration/fast-paths-parity.test.ts).
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 400, 400, 404])
    expect(await answers[1]?.json()).toEqual({ code: 'NOT_FOUND', message: 'Task not found' })
  })

  test('stream with the headers a proxy needs, the retry delay, and keep-alive comments', async () => {
    const stream = await readRawStream(`${origin}/api/events/tasks`, { cookie: cookies.owner })
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no')
    expect(stream.response.headers.get('content-encoding')).toBeNull()
    await stream.waitForFrame((frame) => frame === ': keep-alive')
    expect(stream.frames[0]).toBe('retry: 3000')
    stream.abort()
    const publicTask = await createTask(db, people.owner, fields({ isPublic: true }))
    // Anyone may follow a public task's discussion, as anyone may read it.
    const comments = await readRawStream(`${origin}/api/events/comments?taskId=${publicTask.id}`)
    await comments.waitFor('ready')
    expect(comments.frames[0]).toBe('retry: 5000')
    comments.abort()
  })
})

describe('a session that ends', () => {
  test('ends the streams opened with it, and only those; reconnecting is refused', async () => {
    const row = await createUser(db, { name: 'Signed out elsewhere' })
    const [leaving, staying] = [await signedInBrowser(db, row.id), await signedInBrowser(db, row.id)]
    const publicTask = await createTask(db, people.owner, fields({ isPublic: true }))
    const open = (cookie: string) =>
      Promise.all([
        readRawStream(`${origin}/api/events/tasks`, { cookie }),
        readRawStream(`${origin}/api/events/comments?taskId=${publicTask.id}`, { cookie }),
      ])
    const [ending, kept] = [await open(leaving.cookie), await open(staying.cookie)]
    await Promise.all([...ending, ...kept].map((stream) => stream.waitFor('ready')))

    // Signed out on another device: "sign out other sessions", say.
    await revokeSession(db, row.id, leaving.session.id)
    await Promise.all(ending.map((stream) => stream.ended))
    const again = await fetch(`${origin}/api/events/tasks`, { headers: { Cookie: leaving.cookie } })
    expect(again.status).toBe(401)
    await again.body?.cancel()

    // The other session's streams were left alone, and still hear changes.
    await addComment(db, people.owner, { taskId: publicTask.id, content: 'Still here?', mentions: [] })
    await kept[1].waitFor('comment-added')
    await revokeAllSessions(db, row.id)
    await Promise.all(kept.map((stream) => stream.ended))
  })
})

describe('an account disabled or signed out by an admin', () => {
  test('ends its streams at once, through the log, without waiting for the session check', async () => {
    // A session check that would never come within the test: only the log's event can end them.
    const slow = createEventStreams(db, { keepAliveMs: KEEP_ALIVE_MS, sessionCheckMs: 3_600_000 })
    const door = createServer((req, res) => slow.handle(req, res, () => res.end()))
    door.listen(0, '127.0.0.1')
    await once(door, 'listening')
    const at = `http://127.0.0.1:${(door.address() as AddressInfo).port}`
    try {
      const admin = { id: 'an-admin', email: 'root@example.test', ip: '192.0.2.1' }
      const [gone, kept] = [await createUser(db), await createUser(db)]
      const publicTask = await createTask(db, people.owner, fields({ isPublic: true }))
      const open = async (userId: string) => {
        const { cookie } = await signedInBrowser(db, userId)
        return Promise.all([
          readRawStream(`${at}/api/events/tasks`, { cookie }),
          readRawStream(`${at}/api/events/comments?taskId=${publicTask.id}`, { cookie }),
        ])
      }
      const [ending, staying] = [await open(gone.id), await open(kept.id)]
      await Promise.all([...ending, ...staying].map((stream) => stream.waitFor('ready')))

      const startedAt = Date.now()
      await disablePerson(db, admin, gone.id)
      await Promise.all(ending.map((stream) => stream.ended))
      expect(Date.now() - startedAt).toBeLessThan(2_000)

      // Someone else's streams hear on.
      await addComment(db, people.owner, { taskId: publicTask.id, content: 'Still here', mentions: [] })
      await staying[1].waitFor('comment-added')
      await endAllSessions(db, admin, kept.id)
      await Promise.all(staying.map((stream) => stream.ended))
    } finally {
      slow.close()
      door.closeAllConnections()
      door.close()
    }
  })
})

describe('the task stream', () => {
  test('delivers task changes in order, with the old and new status', async () => {
    const client = openEventSource(`${origin}/api/events/tasks`, cookies.shared)
    await client.waitFor('ready')
    const task = await sharedTask()
    await setTaskStatus(db, people.owner, task.id, 'In Progress')
    await updateTask(db, people.owner, task.id, { text: 'Renamed' })
    await deleteTask(db, people.owner, task.id)
    await client.waitFor('task-deleted')
    const changes = client.changes().filter((event) => event.data.taskId === task.id)
    expect(changes.map((event) => event.type)).toEqual([
      'task-created',
      'task-status-changed',
      'task-updated',
      'task-deleted',
    ])
    expect(changes[1]?.data).toMatchObject({ oldStatus: 'Not Started', newStatus: 'In Progress' })
    expect(changes.map((event) => event.id)).toEqual(
      [...changes.map((event) => event.id)].sort((a, b) => a - b),
    )
    // Who could see a deleted task is the server's to know, never sent.
    expect(changes[3]?.data).not.toHaveProperty('audience')
    client.close()
  })

  test('never carries a task the person cannot see, and stops at once when they lose it', async () => {
    const stranger = openEventSource(`${origin}/api/events/tasks`, cookies.stranger)
    const shared = openEventSource(`${origin}/api/events/tasks`, cookies.shared)
    await Promise.all([stranger.waitFor('ready'), shared.waitFor('ready')])
    const task = await sharedTask()
    await updateTask(db, people.owner, task.id, { sharedWith: [] })
    await setTaskStatus(db, people.owner, task.id, 'Completed')
    await deleteTask(db, people.owner, task.id)
    // A public task is for everyone: its event proves the stranger's stream was flowing.
    const marker = await createTask(db, people.owner, fields({ isPublic: true }))
    await Promise.all([
      stranger.waitFor('task-created', (event) => event.data.taskId === marker.id),
      shared.waitFor('task-created', (event) => event.data.taskId === marker.id),
    ])
    expect(stranger.changes().filter((event) => event.data.taskId === task.id)).toEqual([])
    // The shared person heard of the creation; the unsharing was the last thing they saw.
    expect(
      shared
        .changes()
        .filter((event) => event.data.taskId === task.id)
        .map((event) => event.type),
    ).toEqual(['task-created'])
    stranger.close()
    shared.close()
  })

  test('tells a person who is no longer in a workspace, then carries nothing more of its tasks', async () => {
    const [owner, removed, leaving, kept] = [
      await createUser(db),
      await createUser(db),
      await createUser(db),
      await createUser(db),
    ]
    const [ownerActor, leavingActor] = [toSessionUser(owner), toSessionUser(leaving)]
    const team = await createTeamWorkspace(db, {
      ownerId: owner.id,
      members: [removed, leaving, kept].map((person) => ({ userId: person.id, role: 'member' as const })),
    })
    const task = await createTask(db, ownerActor, fields({ workspaceId: team.id }))
    const open = async (userId: string) => {
      const client = openEventSource(`${origin}/api/events/tasks`, (await signedInBrowser(db, userId)).cookie)
      await client.waitFor('ready')
      return client
    }
    const [removedStream, leavingStream, keptStream, ownerStream] = [
      await open(removed.id),
      await open(leaving.id),
      await open(kept.id),
      await open(owner.id),
    ]

    await removeMember(db, ownerActor, team.id, removed.id)
    await leaveWorkspace(db, leavingActor, team.id)
    await Promise.all([
      removedStream.waitFor('access-changed', (event) => event.data.userId === removed.id),
      leavingStream.waitFor('access-changed', (event) => event.data.userId === leaving.id),
    ])
    await updateTask(db, ownerActor, task.id, { text: 'After they went' })
    await keptStream.waitFor('task-updated', (event) => event.data.taskId === task.id)
    // Nobody else is told of someone else's access, and those who went hear nothing more of it.
    expect(keptStream.changes().map((event) => event.type)).not.toContain('access-changed')
    for (const gone of [removedStream, leavingStream]) {
      expect(gone.changes().filter((event) => event.type === 'access-changed')).toHaveLength(1)
      expect(gone.changes().filter((event) => event.data.taskId === task.id)).toEqual([])
    }

    // Deleting the workspace tells every member, its owner among them.
    await deleteWorkspace(db, ownerActor, team.id, team.name)
    await Promise.all([
      keptStream.waitFor('access-changed', (event) => event.data.userId === kept.id),
      ownerStream.waitFor('access-changed', (event) => event.data.userId === owner.id),
    ])
    expect(removedStream.changes().filter((event) => event.type === 'access-changed')).toHaveLength(1)
    for (const client of [removedStream, leavingStream, keptStream, ownerStream]) client.close()
  })

  test('brings each person their own mentions, and nobody else’s', async () => {
    const task = await sharedTask()
    const shared = openEventSource(`${origin}/api/events/tasks`, cookies.shared)
    const owner = openEventSource(`${origin}/api/events/tasks`, cookies.owner)
    await Promise.all([shared.waitFor('ready'), owner.waitFor('ready')])
    const { comment } = await addComment(db, people.owner, {
      taskId: task.id,
      content: `Have a look @${people.shared.name}`,
      mentions: [people.shared.id],
    })
    const mention = await shared.waitFor('mention')
    expect(mention.data).toMatchObject({
      taskId: task.id,
      commentId: comment.id,
      recipientId: people.shared.id,
    })
    await owner.waitFor('ready')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(owner.changes().filter((event) => event.type === 'mention')).toEqual([])
    shared.close()
    owner.close()
  })

  test('resumes from Last-Event-ID during a burst of writes and loses nothing', async () => {
    const task = await createTask(db, people.owner, fields())
    const first = await readRawStream(`${origin}/api/events/tasks`, { cookie: cookies.owner })
    await first.waitFor('ready')
    const updates = 200
    const burst = (async () => {
      for (let n = 0; n < updates; n++) {
        await updateTask(db, people.owner, task.id, { text: `Version ${n}` })
        // One write per turn of the event loop, as separate requests would come.
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    // Cut off mid-burst, and reconnect the way EventSource does, with the last id it saw.
    await first.waitFor('task-updated', () => first.events.length > 5)
    first.abort()
    const lastSeen = first.events.at(-1)?.id ?? 0
    const second = await readRawStream(`${origin}/api/events/tasks`, {
      cookie: cookies.owner,
      lastEventId: lastSeen,
    })
    await burst
    const head = await eventLogHead(db)
    await expect
      .poll(() => Math.max(lastSeen, ...second.events.map((event) => event.id)), { timeout: 5000 })
      .toBe(head)
    second.abort()
    const seen = [...first.events, ...second.events].filter((event) => event.type === 'task-updated')
    const ids = seen.map((event) => event.id)
    expect(seen.map((event) => event.data.taskId)).toEqual(Array(updates).fill(task.id))
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b))
    expect(lastSeen).toBeLessThan(head)
  }, 30_000)

  test('a cursor older than the kept log gets reset, one ahead of it too', async () => {
    const task = await createTask(db, people.owner, fields())
    await db.update(events).set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
    expect(await pruneEvents(db)).toBeGreaterThan(0)
    await setTaskStatus(db, people.owner, task.id, 'In Progress')
    const head = await eventLogHead(db)
    for (const cursor of [1, head + 1000]) {
      const stream = await readRawStream(`${origin}/api/events/tasks?after=${cursor}`, {
        cookie: cookies.owner,
      })
      const reset = await stream.waitFor('reset')
      expect(reset.id).toBe(head)
      stream.abort()
    }
  })
})

describe('the comment stream', () => {
  test('carries one task’s discussion and ends when the task is deleted', async () => {
    const task = await sharedTask()
    const other = await sharedTask()
    const client = await readRawStream(`${origin}/api/events/comments?taskId=${task.id}`, {
      cookie: cookies.shared,
    })
    await client.waitFor('ready')
    const { comment } = await addComment(db, people.owner, {
      taskId: task.id,
      content: 'Hello',
      mentions: [],
    })
    await addComment(db, people.owner, { taskId: other.id, content: 'Elsewhere', mentions: [] })
    await toggleReaction(db, people.shared, comment.id, 'heart')
    await deleteTask(db, people.owner, task.id)
    await client.ended
    expect(client.events.map((event) => event.type)).toEqual([
      'ready',
      'comment-added',
      'reaction-changed',
      'task-deleted',
    ])
    expect(client.events[2]?.data).toMatchObject({ commentId: comment.id, type: 'heart', isActive: true })
  })

  test('says gone and ends for someone the task is no longer shared with', async () => {
    const task = await sharedTask()
    const client = await readRawStream(`${origin}/api/events/comments?taskId=${task.id}`, {
      cookie: cookies.shared,
    })
    await client.waitFor('ready')
    await updateTask(db, people.owner, task.id, { sharedWith: [] })
    await client.ended
    await addComment(db, people.owner, { taskId: task.id, content: 'Not for you', mentions: [] })
    expect(client.events.map((event) => event.type)).toEqual(['ready', 'gone'])
  })
})

describe('resources', () => {
  test('1,000 connect/abort cycles leave no subscriber behind', async () => {
    const task = await createTask(db, people.owner, fields({ isPublic: true }))
    const url = `${origin}/api/events/comments?taskId=${task.id}`
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from(
          { length: 50 },
          () =>
            new Promise<void>((resolve, reject) => {
              const request = get(url, (response) => {
                // Half leave as soon as the headers arrive, half once the stream is under way.
                if (Math.random() < 0.5) request.destroy()
                else response.once('data', () => request.destroy())
              })
              request.on('close', resolve)
              request.on('error', (error) => (request.destroyed ? resolve() : reject(error)))
            }),
        ),
      )
    }
    await expect.poll(() => streams.openStreams, { timeout: 3000 }).toBe(0)
    expect(streams.broadcaster.subscriberCount).toBe(0)
  }, 30_000)

  test('closing (SIGTERM) ends every stream', async () => {
    const clients = await Promise.all(
      [0, 1, 2].map(() => readRawStream(`${origin}/api/events/tasks`, { cookie: cookies.owner })),
    )
    await Promise.all(clients.map((client) => client.waitFor('ready')))
    streams.close()
    await Promise.all(clients.map((client) => client.ended))
    expect(streams.openStreams).toBe(0)
    // While it stops, a new stream is sent elsewhere rather than left waiting for events.
    const late = await fetch(`${origin}/api/events/tasks`, { headers: { Cookie: cookies.owner } })
    expect(late.status).toBe(503)
  })
})
