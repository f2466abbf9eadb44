import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { CSRF_HEADER, issueCsrfToken } from '~/auth/csrf.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { createSession, revokeSession, toSessionUser } from '~/services/sessions.server'
import { createTask as createTaskAs } from '~/services/tasks/writes.server'
import { eventStreams } from '~/streams/event-streams.server'
import { createApp } from '../../server/app'
import { fastPaths } from '../../server/fast-paths'
import { createComment, createTask, createUser, shareTask } from '../helpers/factories'
import { rpcRequest } from '../helpers/rpc'
import { routerRequests } from '../helpers/server-build'
import { readRawStream } from '../helpers/sse'

/**
 * Every door ahead of React Router (server/fast-paths.ts) answers as the router path would: the
 * same request is sent to the whole server (server/app.ts) with fast paths on and with
 * `FAST_PATHS=off`, and the two answers must match — status, headers (security headers, CSP with
 * its nonce blanked, caching, cookies), body (a stream's frames up to `ready`) and the log lines —
 * for every state a session can be in. A new door gets its cases here, or the last tests fail.
 *
 * Transport is left out: Date, Connection and Keep-Alive, and how the body is framed or encoded
 * (Content-Length or chunked; the router's compression step may gzip a JSON body the door sends
 * plain, which the client decodes to the same bytes).
 */

const db = database()
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
])
const DAY_MS = 24 * 60 * 60 * 1000

type Side = 'on' | 'off'
const origins = {} as Record<Side, string>
const servers: Server[] = []

beforeAll(async () => {
  const clientDir = mkdtempSync(join(tmpdir(), 'threadwork-client-'))
  mkdirSync(join(clientDir, 'assets'))
  for (const side of ['on', 'off'] as const) {
    const config = { ...env(), FAST_PATHS: side === 'on', LOG_REQUESTS: true }
    const server = createServer(createApp(config, { clientDir }))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    servers.push(server)
    origins[side] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
})

afterAll(async () => {
  eventStreams().close()
  for (const server of servers) {
    server.closeAllConnections()
    server.close()
  }
})

/** The states a browser's session can be in, each made afresh for every request. */
const SESSION_STATES = ['none', 'valid', 'expired', 'revoked', 'due for renewal'] as const
type SessionState = (typeof SESSION_STATES)[number]

type Browser = { cookie?: string; token?: string; csrf?: string }

async function browserIn(state: SessionState, userId: string): Promise<Browser> {
  if (state === 'none') return {}
  const ageMs = state === 'expired' ? 31 * DAY_MS : state === 'due for renewal' ? 2 * DAY_MS : 0
  const session = await createSession(db, userId, {}, new Date(Date.now() - ageMs))
  if (state === 'revoked') await revokeSession(db, userId, session.id)
  return {
    cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}`,
    token: session.token,
    csrf: issueCsrfToken(`session:${session.id}`),
  }
}

type Ask = { method?: string; path: string; headers?: Record<string, string> }

type Answer = {
  status: number
  headers: Record<string, string>
  body: string
  logs: string[]
  reachedRouter: boolean
}

const logged: string[] = []
beforeAll(() => {
  for (const method of ['log', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
      logged.push(parts.map((part) => (part instanceof Error ? part.message : String(part))).join(' '))
    })
  }
})

/** What a client sees of one request, with what changes between any two requests blanked. */
async function send(side: Side, ask: Ask, browser: Browser): Promise<Answer> {
  const headers: Record<string, string> = { ...ask.headers }
  if (browser.cookie) headers.Cookie = browser.cookie
  const method = ask.method ?? 'GET'
  logged.length = 0
  const routerSeen = routerRequests.length
  const controller = new AbortController()
  const response = await fetch(`${origins[side]}${ask.path}`, { method, headers, signal: controller.signal })
  const body = response.headers.get('Content-Type')?.startsWith('text/event-stream')
    ? await framesUntilReady(response, controller)
    : await response.text()
  // The log line is written when the response ends, just after the client has read it, or when
  // the client leaves a stream (server/app.ts logs and counts those too).
  await waitFor(() => logged.some((line) => line.startsWith(`${method} `)))
  return {
    status: response.status,
    headers: normalHeaders(response.headers, browser),
    body: normalBody(body),
    logs: logged.map((line) => line.replace(/\d+\.\dms$/, '<ms>')),
    reachedRouter: routerRequests.length > routerSeen,
  }
}

async function waitFor(isDone: () => boolean, timeoutMs = 1000) {
  const deadline = Date.now() + timeoutMs
  while (!isDone() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** A stream's first frames: up to and with `ready` (or `reset`), then the client leaves. */
async function framesUntilReady(response: Response, controller: AbortController) {
  let text = ''
  const decoder = new TextDecoder()
  const timeout = setTimeout(() => controller.abort(), 3000)
  try {
    for await (const chunk of response.body ?? []) {
      text += decoder.decode(chunk, { stream: true })
      if (/event: (ready|reset)\n[^\n]*\n\n/.test(text)) break
    }
  } catch {
    // Aborted: the frames so far are the answer.
  } finally {
    clearTimeout(timeout)
    controller.abort()
  }
  return text
}

function normalHeaders(headers: Headers, browser: Browser) {
  const kept: Record<string, string> = {}
  for (const [name, value] of headers) {
    if (TRANSPORT.has(name)) continue
    // Every request gets an id of its own (server/app.ts): the same step gives it on both ways.
    if (name === 'x-request-id') {
      kept[name] = /^[\w-]{36}$/.test(value) ? '<request id>' : value
      continue
    }
    kept[name] = value.replace(/'nonce-[^']+'/g, "'nonce-…'")
  }
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) {
    const token = browser.token ? encodeURIComponent(browser.token) : null
    kept['set-cookie'] = cookies
      .map((cookie) => (token ? cookie.replace(token, '<token>') : cookie))
      .join(' | ')
  }
  return kept
}

/** Health reports carry their timings and the time they were made. */
function normalBody(body: string) {
  return body
    .replace(/"latencyMs":[\d.]+/, '"latencyMs":0')
    .replace(/"uptimeSeconds":\d+/, '"uptimeSeconds":0')
    .replace(/"checkedAt":"[^"]+"/, '"checkedAt":""')
}

/** Sends `ask` both ways, each with a browser of its own in `state`, and returns both answers. */
async function bothWays(ask: Ask | (() => Ask), state: SessionState, userId: string) {
  const answers = {} as Record<Side, Answer>
  for (const side of ['on', 'off'] as const) {
    const browser = await browserIn(state, userId)
    const request = typeof ask === 'function' ? ask() : ask
    const headers = { ...request.headers }
    // A mutation case carries the browser's own token where it asks for one.
    if (headers[CSRF_HEADER] === '<csrf>') headers[CSRF_HEADER] = browser.csrf ?? ''
    answers[side] = await send(side, { ...request, headers }, browser)
  }
  return answers
}

function expectSame(answers: Record<Side, Answer>, what: string) {
  const { reachedRouter: _on, ...on } = answers.on
  const { reachedRouter: _off, ...off } = answers.off
  expect(on, what).toEqual(off)
  expect(answers.off.reachedRouter, `${what}: FAST_PATHS=off reaches the router`).toBe(true)
}

/**
 * The parity cases, by door: what each door answers (and what it must pass on), for a person who
 * may see what is asked and for one who may not.
 */
type Case = { door: string; name: string; ask: Ask | (() => Ask); states: readonly SessionState[] }

type Fixture = {
  privateTask: string
  publicTask: string
  sharee: string
  stranger: string
  shareeUser: ReturnType<typeof toSessionUser>
}
/** Made once the database is migrated: the cases read it when they run. */
const the = {} as Fixture

beforeAll(async () => {
  const owner = await createUser(db, { name: 'Ada Owner' })
  const sharee = await createUser(db, { name: 'Grace Sharee' })
  const stranger = await createUser(db, { name: 'Sam Stranger' })
  const privateTask = await createTask(db, { userId: owner.id, text: 'Plan the release' })
  const publicTask = await createTask(db, { userId: owner.id, text: 'Open roadmap', isPublic: true })
  await shareTask(db, privateTask.id, [sharee.email])
  await createComment(db, { taskId: privateTask.id, userId: owner.id, content: 'Dates?' })
  Object.assign(the, {
    privateTask: privateTask.id,
    publicTask: publicTask.id,
    sharee: sharee.id,
    stranger: stranger.id,
    shareeUser: toSessionUser(sharee),
  })
})

const rpcPath = (procedure: string, input?: unknown) => {
  const url = new URL(rpcRequest(procedure, input, { method: 'GET' }).url)
  return `${url.pathname}${url.search}`
}

const ALL = SESSION_STATES
const mutation = (path: string, withCsrf: boolean): Ask => ({
  method: 'POST',
  path,
  headers: withCsrf ? { [CSRF_HEADER]: '<csrf>', 'Content-Type': 'application/json' } : {},
})

const CASES: Case[] = [
  { door: 'health', name: 'GET /healthz', ask: { path: '/healthz' }, states: ALL },
  { door: 'health', name: 'HEAD /healthz', ask: { method: 'HEAD', path: '/healthz' }, states: ALL },
  { door: 'health', name: 'POST /healthz, no token', ask: mutation('/healthz', false), states: ['valid'] },
  { door: 'health', name: 'GET /healthz?verbose', ask: { path: '/healthz?verbose' }, states: ['none'] },

  { door: 'event streams', name: 'GET tasks', ask: { path: '/api/events/tasks' }, states: ALL },
  {
    door: 'event streams',
    name: 'HEAD tasks',
    ask: { method: 'HEAD', path: '/api/events/tasks' },
    states: ALL,
  },
  {
    door: 'event streams',
    name: 'GET tasks, bad cursor',
    ask: { path: '/api/events/tasks?after=abc' },
    states: ['valid'],
  },
  {
    door: 'event streams',
    name: 'GET tasks, resuming',
    ask: { path: '/api/events/tasks', headers: { 'Last-Event-ID': '1' } },
    states: ['valid'],
  },
  {
    door: 'event streams',
    name: 'GET comments of a shared task',
    ask: () => ({ path: `/api/events/comments?taskId=${the.privateTask}` }),
    states: ALL,
  },
  {
    door: 'event streams',
    name: 'GET comments of a public task',
    ask: () => ({ path: `/api/events/comments?taskId=${the.publicTask}` }),
    states: ['none', 'valid'],
  },
  {
    door: 'event streams',
    name: 'GET comments without a task',
    ask: { path: '/api/events/comments' },
    states: ['valid'],
  },
  {
    door: 'event streams',
    name: 'POST tasks, no token',
    ask: mutation('/api/events/tasks', false),
    states: ['none', 'valid'],
  },
  {
    door: 'event streams',
    name: 'POST tasks, with token',
    ask: mutation('/api/events/tasks', true),
    states: ['valid'],
  },

  {
    door: 'versioned reads',
    name: 'GET comments.getComments',
    ask: () => ({ path: rpcPath('comments/getComments', { taskId: the.privateTask }) }),
    states: ALL,
  },
  {
    door: 'versioned reads',
    name: 'GET comments.getComments, compressed',
    ask: () => ({
      path: rpcPath('comments/getComments', { taskId: the.privateTask }),
      headers: { 'Accept-Encoding': 'br, gzip' },
    }),
    states: ['valid'],
  },
  {
    door: 'versioned reads',
    name: 'HEAD task.getTaskUsers',
    ask: () => ({ method: 'HEAD', path: rpcPath('task/getTaskUsers', { taskId: the.privateTask }) }),
    states: ['valid', 'due for renewal'],
  },
  { door: 'versioned reads', name: 'GET task.getAll', ask: { path: rpcPath('task/getAll') }, states: ALL },
  {
    door: 'versioned reads',
    name: 'GET task.get, not versioned',
    ask: () => ({ path: rpcPath('task/get', { taskId: the.privateTask }) }),
    states: ['valid', 'due for renewal'],
  },
  {
    door: 'versioned reads',
    name: 'GET of no such procedure',
    ask: { path: rpcPath('task/nothing') },
    states: ['valid'],
  },
  {
    door: 'versioned reads',
    name: 'POST comments.getComments, no token',
    ask: () => mutation(rpcPath('comments/getComments', { taskId: the.privateTask }), false),
    states: ['valid'],
  },
]

describe.each(CASES.map((each) => [each.door, each.name, each] as const))('%s: %s', (_door, _name, each) => {
  test.each(each.states.map((state) => [state]))('a session %s: the same answer both ways', async (state) => {
    expectSame(await bothWays(each.ask, state, the.sharee), `${each.name}, ${state}`)
  })
})

describe('the cases can fail', () => {
  test('a session due for renewal gets its cookie from every door, and only then', async () => {
    for (const ask of [
      { path: '/healthz' },
      { path: '/api/events/tasks' },
      { path: rpcPath('comments/getComments', { taskId: the.privateTask }) },
    ]) {
      const due = await bothWays(ask, 'due for renewal', the.sharee)
      expect(due.on.headers['set-cookie'], ask.path).toMatch(new RegExp(`^${SESSION_COOKIE}=<token>;`))
      const valid = await bothWays(ask, 'valid', the.sharee)
      expect(valid.on.headers['set-cookie'], ask.path).toBeUndefined()
    }
  })

  test('a poll holding the current version gets its 304 ahead of the router, and a stream its frames', async () => {
    const path = rpcPath('comments/getComments', { taskId: the.privateTask })
    const first = await bothWays({ path }, 'valid', the.sharee)
    const etag = first.on.headers.etag ?? ''
    const polled = await bothWays({ path, headers: { 'If-None-Match': etag } }, 'valid', the.sharee)
    expectSame(polled, 'a poll with the current ETag')
    expect(polled.on.status).toBe(304)
    expect(polled.on.reachedRouter).toBe(false)

    const stream = await bothWays({ path: '/api/events/tasks' }, 'valid', the.sharee)
    expect(stream.on.status).toBe(200)
    expect(stream.on.body).toMatch(/^retry: 3000\n\nid: \d+\nevent: ready\n/)
    expect(stream.on.reachedRouter).toBe(false)
    expect(stream.on.headers['x-frame-options']).toBe('DENY')
  })

  test('a stream either way hears the same live event, and lets go when its client leaves', async () => {
    // The streams of the cases before have all let go, whichever way they were served.
    await waitFor(() => eventStreams().openStreams === 0)
    const before = eventStreams().openStreams
    expect(before).toBe(0)
    const { cookie } = await browserIn('valid', the.sharee)
    const streams = await Promise.all(
      (['on', 'off'] as const).map((side) => readRawStream(`${origins[side]}/api/events/tasks`, { cookie })),
    )
    for (const stream of streams) await stream.waitFor('ready')
    expect(eventStreams().openStreams).toBe(before + 2)
    const task = await createTaskAs(db, the.shareeUser, {
      text: 'Heard both ways',
      priority: 'medium',
      status: 'Not Started',
      hrs: 1,
      isPublic: false,
      sharedWith: [],
    })
    const [on, off] = await Promise.all(
      streams.map((stream) => stream.waitFor('task-created', (event) => event.data.taskId === task.id)),
    )
    expect(on).toEqual(off)
    for (const stream of streams) stream.abort()
    await waitFor(() => eventStreams().openStreams === before)
    expect(eventStreams().openStreams).toBe(before)
  })

  test('a refusal is the same words both ways', async () => {
    const refused = await bothWays(
      { path: `/api/events/comments?taskId=${the.privateTask}` },
      'valid',
      the.stranger,
    )
    expectSame(refused, 'a stranger asking for a private discussion')
    expect(refused.on.status).toBe(404)
    expect(JSON.parse(refused.on.body)).toEqual({ code: 'NOT_FOUND', message: 'Task not found' })
    expect(refused.on.logs).toEqual([
      expect.stringMatching(/^GET \/api\/events\/comments\?taskId=\S+ 404 <ms>$/),
    ])
  })
})

describe('the list of doors', () => {
  const doors = fastPaths({ db: database, eventStreams })
  const asRequest = (ask: Ask) =>
    ({ method: ask.method ?? 'GET', url: ask.path, headers: ask.headers ?? {} }) as unknown as IncomingMessage

  test('names each door once, with its reason and a decision that exists, and parity cases', () => {
    expect(new Set(doors.map((door) => door.name)).size).toBe(doors.length)
    for (const door of doors) {
      expect(door.reason.length, door.name).toBeGreaterThan(20)
      expect(() => readFileSync(door.decision), door.decision).not.toThrow()
    }
    expect(new Set(CASES.map((each) => each.door))).toEqual(new Set(doors.map((door) => door.name)))
  })

  test('is every request server/app.ts answers ahead of the router, and each door in it answers some', async () => {
    const answeredAhead = new Set<string>()
    const requests: Ask[] = [
      ...CASES.map((each) => (typeof each.ask === 'function' ? each.ask() : each.ask)),
      { method: 'HEAD', path: '/' },
      { path: '/api/csrf' },
      { path: '/healthz/' },
      { path: '/api/events/other' },
    ]
    for (const ask of requests) {
      const answer = await send('on', ask, await browserIn('valid', the.sharee))
      const door = doors.find((each) => each.matches(asRequest(ask)))
      if (!answer.reachedRouter) {
        expect(
          door?.name,
          `${ask.method ?? 'GET'} ${ask.path} was answered ahead of the router`,
        ).toBeDefined()
        answeredAhead.add(door?.name ?? '')
      }
      const off = await send('off', ask, await browserIn('valid', the.sharee))
      expect(off.reachedRouter, `${ask.path} with FAST_PATHS=off`).toBe(true)
    }
    expect(answeredAhead).toEqual(new Set(doors.map((door) => door.name)))
  })

  test('server/app.ts takes its doors from server/fast-paths.ts only', () => {
    const app = readFileSync('server/app.ts', 'utf8')
    for (const door of ['./health-check', './versioned-reads', './door'])
      expect(app, door).not.toContain(`'${door}'`)
    // The steps in front of the adapter, comments left out: a new one is a new door until this
    // list says otherwise, and a door belongs in server/fast-paths.ts.
    const steps = /const steps = \[([\s\S]*?)\n {2}\]/.exec(app)?.[1] ?? ''
    const names = steps
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('//'))
      .map((line) => /^(?:\.\.\.\()?[\w.]+(?:\(|\s|,)/.exec(line)?.[0].replace(/[(\s,]$/, ''))
    expect(names).toEqual([
      'observeRequests',
      // Not a door: on a replica, room for a request to read from the primary (app/db/replicas.server.ts).
      '...(config.DATABASE_SYNC_URL',
      'setSecurityHeaders',
      '...(config.FAST_PATHS',
      'compress',
      'serveStatic',
    ])
    expect(steps).toContain('fastPathStep(fastPaths(')
  })
})
