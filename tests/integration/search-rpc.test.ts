import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { SEARCH_LIMITS } from '~/domain/constants'
import { EMPTY_QUERY_MESSAGE, LONG_QUERY_MESSAGE } from '~/services/search-query'
import { anonymousBrowser, signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createComment, createTask, createUser, shareTask } from '../helpers/factories'
import { type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * task.search from the outside: `@orpc/client`'s RPCLink over real HTTP against /api/rpc, by GET
 * like every read, with the visibility rule the service holds (app/services/search.server.test.ts
 * has the whole grid; here what a client sees of it).
 */

const db = database()
let server: RpcServer
let owner: TestBrowser
let stranger: TestBrowser

beforeAll(async () => {
  server = await startRpcServer()
  const ada = await createUser(db, { name: 'Ada Owner' })
  const eve = await createUser(db, { name: 'Eve Stranger' })
  owner = await signedInBrowser(db, ada.id)
  stranger = await signedInBrowser(db, eve.id)
  const secret = await createTask(db, { userId: ada.id, text: 'Private lighthouse keeper' })
  await createComment(db, { taskId: secret.id, userId: ada.id, content: 'lighthouse lamp oil' })
  const open = await createTask(db, { userId: ada.id, text: 'Public lighthouse tour', isPublic: true })
  await shareTask(db, open.id, [eve.email])
})

afterAll(() => server.close())

const rejection = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )

describe('task.search', () => {
  test('is a read by GET, and finds tasks and comments with marked parts', async () => {
    const found = await server
      .clientAs(owner, { method: 'GET', withCsrf: false })
      .task.search({ query: 'lighth' })
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET' })
    expect(server.requests.at(-1)?.url).toMatch(/\/api\/rpc\/task\/search/)
    expect(found.message).toBeNull()
    expect(found.tasks.map((task) => task.text).sort()).toEqual([
      'Private lighthouse keeper',
      'Public lighthouse tour',
    ])
    expect(found.tasks[0]?.title).toContainEqual({ text: 'lighthouse', mark: true })
    expect(found.comments).toEqual([
      expect.objectContaining({ taskText: 'Private lighthouse keeper', authorName: 'Ada Owner' }),
    ])
  })

  test('never shows another person’s private task or its comments', async () => {
    const found = await server.clientAs(stranger, { method: 'GET' }).task.search({ query: 'lighthouse' })
    expect(found.tasks.map((task) => task.text)).toEqual(['Public lighthouse tour'])
    expect(found.comments).toEqual([])
    expect(JSON.stringify(found)).not.toMatch(/Private|lamp/)
  })

  test('honours limit, and answers an empty or over-long query with a sentence', async () => {
    const client = server.clientAs(owner, { method: 'GET' })
    expect((await client.task.search({ query: 'lighthouse', limit: 1 })).tasks).toHaveLength(1)
    expect(await client.task.search({ query: ' ' })).toMatchObject({
      message: EMPTY_QUERY_MESSAGE,
      tasks: [],
    })
    const long = 'NEAR("x" '.repeat(2000)
    expect(long.length).toBeGreaterThan(SEARCH_LIMITS.query.maxLength)
    expect(await client.task.search({ query: long })).toMatchObject({
      message: LONG_QUERY_MESSAGE,
      tasks: [],
    })
  })

  test('refuses a limit out of range with BAD_REQUEST, and a caller not signed in with UNAUTHORIZED', async () => {
    const client = server.clientAs(owner, { method: 'GET' })
    expect(
      await rejection(client.task.search({ query: 'x', limit: SEARCH_LIMITS.results.max + 1 })),
    ).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
    })
    expect(
      await rejection(
        server.clientAs(anonymousBrowser(), { method: 'GET' }).task.search({ query: 'lighthouse' }),
      ),
    ).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })
})
