import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { sessions } from '~/db/schema'
import { NewCommentSchema } from '~/services/comment-schemas'
import { addComment } from '~/services/comments.server'
import { toSessionUser } from '~/services/sessions.server'
import { signedInBrowser } from '../tests/helpers/auth'
import { createComment, createTask, createUser, shareTask } from '../tests/helpers/factories'
import { answerThroughRpcRoute, rpcRequest } from '../tests/helpers/rpc'
import { fastPathStep } from './fast-paths'
import { createVersionedReads } from './versioned-reads'

/**
 * The step ahead of React Router answers a versioned read only with what the route itself would
 * answer — a 304 for the current ETag, or the answer the route built under the current version —
 * and passes everything else on. The stale-answer proofs of the versions themselves are in
 * tests/integration/read-versions.test.ts.
 */

const db = database()
let origin = ''
let passedOn: string[] = []
let close: () => Promise<void>

beforeAll(async () => {
  const step = fastPathStep([createVersionedReads()])
  const server = createServer((req: IncomingMessage, res: ServerResponse) =>
    step(req, res, () => {
      passedOn.push(`${req.method} ${req.url}`)
      res.writeHead(599).end()
    }),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = async () => {
    server.closeAllConnections()
    server.close()
    await once(server, 'close')
  }
})

afterAll(() => close())

async function discussion() {
  const ada = await createUser(db, { name: 'Ada' })
  const grace = await createUser(db, { name: 'Grace' })
  const task = await createTask(db, { userId: ada.id, text: 'Plan the release' })
  await shareTask(db, task.id, [grace.email])
  await createComment(db, { taskId: task.id, userId: ada.id, content: 'Dates?' })
  const browser = await signedInBrowser(db, grace.id)
  /** The read as the page asks it, through the route (which keeps what it builds). */
  const throughRoute = async (headers: Record<string, string> = {}) => {
    const response = await answerThroughRpcRoute(
      rpcRequest(
        'comments/getComments',
        { taskId: task.id },
        {
          method: 'GET',
          headers: { Cookie: browser.cookie, ...headers },
        },
      ),
    )
    return { status: response.status, etag: response.headers.get('ETag'), body: await response.text() }
  }
  const path = new URL(rpcRequest('comments/getComments', { taskId: task.id }, { method: 'GET' }).url)
  const target = `${path.pathname}${path.search}`
  const ask = (headers: Record<string, string>, method = 'GET') =>
    fetch(`${origin}${target}`, { method, headers: { Cookie: browser.cookie, ...headers } })
  return { ada, grace, task, browser, throughRoute, ask, target }
}

test('an unchanged poll gets its 304 here, and a new reader the answer the route built', async () => {
  const { throughRoute, ask } = await discussion()
  const built = await throughRoute()
  expect(built.status).toBe(200)
  passedOn = []

  const poll = await ask({ 'If-None-Match': built.etag ?? '' })
  expect(poll.status).toBe(304)
  expect(poll.headers.get('ETag')).toBe(built.etag)
  expect(poll.headers.get('Cache-Control')).toBe('private, no-cache')

  const reader = await ask({ 'Accept-Encoding': 'identity' })
  expect(reader.status).toBe(200)
  expect(reader.headers.get('ETag')).toBe(built.etag)
  expect(await reader.text()).toBe(built.body)

  const head = await ask({}, 'HEAD')
  expect(head.status).toBe(200)
  expect(await head.text()).toBe('')
  expect(passedOn).toEqual([])
})

test('after a change, the read passes on to the route, which builds the new answer', async () => {
  const { ada, task, throughRoute, ask, target } = await discussion()
  const before = await throughRoute()
  await addComment(db, toSessionUser(ada), NewCommentSchema.parse({ taskId: task.id, content: 'Friday.' }))
  passedOn = []
  expect((await ask({ 'If-None-Match': before.etag ?? '' })).status).toBe(599)
  expect((await ask({})).status).toBe(599)
  expect(passedOn).toEqual([`GET ${target}`, `GET ${target}`])

  const after = await throughRoute()
  expect(after.etag).not.toBe(before.etag)
  expect(after.body).toContain('Friday.')
})

test('a caller who may not read it, or is signed out, is the route to answer, ETag or not', async () => {
  const { throughRoute, target } = await discussion()
  const built = await throughRoute()
  const stranger = await signedInBrowser(db, (await createUser(db, { name: 'Eve' })).id)
  passedOn = []
  for (const cookie of [stranger.cookie, '', 'tw_session=not-a-session']) {
    const response = await fetch(`${origin}${target}`, {
      headers: { Cookie: cookie, 'If-None-Match': built.etag ?? '' },
    })
    expect(response.status).toBe(599)
  }
  expect(passedOn).toHaveLength(3)
})

test('any other procedure, method or path passes on', async () => {
  const { target } = await discussion()
  passedOn = []
  const others = [
    fetch(`${origin}/api/rpc/task/get?data=${encodeURIComponent('{"json":{"id":"x"}}')}`),
    fetch(`${origin}${target}`, { method: 'POST' }),
    fetch(`${origin}/api/rpc/comments/getComments?data=not-json`),
    fetch(`${origin}/api/rpcx/comments/getComments`),
    fetch(`${origin}/task`),
  ]
  for (const response of await Promise.all(others)) expect(response.status).toBe(599)
  expect(passedOn).toHaveLength(others.length)
})

test('a session old enough to renew is renewed, and its cookie sent, as the route would', async () => {
  const { browser, throughRoute, ask } = await discussion()
  const built = await throughRoute()
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + 60_000) })
    .where(eq(sessions.id, browser.session.id))
  const poll = await ask({ 'If-None-Match': built.etag ?? '' })
  expect(poll.status).toBe(304)
  expect(poll.headers.get('Set-Cookie')).toMatch(/^tw_session=/)
  const [row] = await db.select().from(sessions).where(eq(sessions.id, browser.session.id))
  expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 24 * 60 * 60 * 1000)
})

test('a session renewed by a read the route must answer still sends its cookie', async () => {
  const { ada, task, browser, ask } = await discussion()
  await addComment(db, toSessionUser(ada), NewCommentSchema.parse({ taskId: task.id, content: 'New.' }))
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + 60_000) })
    .where(eq(sessions.id, browser.session.id))
  const read = await ask({})
  expect(read.status).toBe(599)
  expect(read.headers.get('Set-Cookie')).toMatch(/^tw_session=/)
})

test('a procedure that is not a versioned read costs no session lookup', async () => {
  const { browser } = await discussion()
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + 60_000) })
    .where(eq(sessions.id, browser.session.id))
  const other = await fetch(`${origin}/api/rpc/comments/getMentionNotifications`, {
    headers: { Cookie: browser.cookie },
  })
  expect(other.status).toBe(599)
  // Not looked up here, so not renewed here: the route does both.
  const [row] = await db.select().from(sessions).where(eq(sessions.id, browser.session.id))
  expect(row?.expiresAt.getTime()).toBeLessThan(Date.now() + 120_000)
})
