import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import { updateComment } from '~/services/comments.server'
import { toSessionUser } from '~/services/sessions.server'
import { COMMENT_VIEW_SHAPE, MENTIONABLE_SHAPE, TASK_VIEW_SHAPE } from '~/services/tasks/view-fields'
import { signedInBrowser } from '../../tests/helpers/auth'
import { createComment, createTask, createUser, shareTask } from '../../tests/helpers/factories'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../../tests/helpers/rpc'
import {
  ANSWER_SHAPES,
  answerFromVersion,
  answerShape,
  builtAnswersCache,
  compressedAnswer,
  type VersionedRead,
} from './versioned-reads.server'

const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>

describe('answers kept under a version', () => {
  test('are bounded by count and by bytes, the least recently used going first', () => {
    const kept = builtAnswersCache(2, 1_000_000)
    for (const etag of ['a', 'b']) kept.set(etag, compressedAnswer(bytes(etag), 'application/json'))
    kept.get('a')
    kept.set('c', compressedAnswer(bytes('c'), 'application/json'))
    expect([kept.get('a'), kept.get('b'), kept.get('c')].map(Boolean)).toEqual([true, false, true])

    const small = builtAnswersCache(100, 64 * 1024)
    const answer = () => compressedAnswer(bytes('x'.repeat(3000)), 'application/json')
    for (let i = 0; i < 100; i++) small.set(String(i), answer())
    const left = Array.from({ length: 100 }, (_, i) => small.get(String(i))).filter(Boolean)
    expect(left.length).toBeGreaterThan(0)
    expect(left.length).toBeLessThan(100)
    // One answer larger than a sixteenth of the budget is not kept at all.
    small.set('huge', compressedAnswer(bytes(JSON.stringify(Array.from({ length: 4000 }, (_, i) => i))), 'x'))
    expect(small.get('huge')).toBeUndefined()
  })
})

describe('a versioned read over the route', () => {
  test('comes compressed once, in the encoding the caller accepts, with the same bytes inside', async () => {
    const db = database()
    const owner = await createUser(db)
    const task = await createTask(db, { userId: owner.id })
    for (let i = 0; i < 20; i++) {
      await createComment(db, {
        taskId: task.id,
        userId: owner.id,
        content: `Point ${i}: ${'words '.repeat(20)}`,
      })
    }
    const browser = await signedInBrowser(db, owner.id)
    const read = async (acceptEncoding?: string) => {
      const headers: Record<string, string> = { Cookie: browser.cookie }
      if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding
      const response = await answerThroughRpcRoute(
        rpcRequest('comments/getComments', { taskId: task.id }, { method: 'GET', headers }),
      )
      const body = Buffer.from(await response.arrayBuffer())
      return { encoding: response.headers.get('Content-Encoding'), vary: response.headers.get('Vary'), body }
    }
    const plain = await read()
    expect(plain.encoding).toBeNull()
    expect(plain.vary).toBe('Accept-Encoding')
    const br = await read('gzip, deflate, br')
    expect(br.encoding).toBe('br')
    expect(brotliDecompressSync(br.body)).toEqual(plain.body)
    const gzip = await read('br;q=0, gzip')
    expect(gzip.encoding).toBe('gzip')
    expect(gunzipSync(gzip.body)).toEqual(plain.body)
  })

  test.each(['__proto__', 'constructor', 'comments/__proto__'])(
    'a path named like an object property (%s) is no procedure: 404, never a 500',
    async (path) => {
      const response = await answerThroughRpcRoute(rpcRequest(path, undefined, { method: 'GET' }))
      expect(response.status).toBe(404)
    },
  )
})

describe('an answer’s shape, from its view’s fields, is part of its ETag', () => {
  test('a field added, renamed or removed at any depth changes the shape; their order does not', () => {
    const shape = answerShape(COMMENT_VIEW_SHAPE)
    const { revisions, ...topLevel } = COMMENT_VIEW_SHAPE
    expect(answerShape({ ...COMMENT_VIEW_SHAPE, pinned: true })).not.toBe(shape)
    expect(answerShape({ ...topLevel, revisions: { ...revisions, editedBy: true } })).not.toBe(shape)
    expect(answerShape({ ...topLevel, revisions: { content: true, writtenAt: true } })).not.toBe(shape)
    expect(answerShape(topLevel)).not.toBe(shape)
    const reversed = Object.fromEntries(Object.entries(COMMENT_VIEW_SHAPE).reverse())
    expect(answerShape(reversed)).toBe(shape)
  })

  /** Ada's task shared with Grace, with an edited comment: every versioned read has something to say. */
  async function world() {
    const db = database()
    const ada = await createUser(db, { name: 'Ada' })
    const grace = await createUser(db, { name: 'Grace' })
    const task = await createTask(db, { userId: ada.id, text: 'Plan the release' })
    await shareTask(db, task.id, [grace.email])
    const comment = await createComment(db, { taskId: task.id, userId: ada.id, content: 'Dates?' })
    await updateComment(db, toSessionUser(ada), comment.id, 'Dates and scope?')
    return { db, ada, task, browser: await signedInBrowser(db, ada.id) }
  }

  const READS: { path: VersionedRead; shape: object; withTask: boolean }[] = [
    { path: 'task/getAll', shape: TASK_VIEW_SHAPE, withTask: false },
    { path: 'comments/getComments', shape: COMMENT_VIEW_SHAPE, withTask: true },
    { path: 'task/getTaskUsers', shape: MENTIONABLE_SHAPE, withTask: true },
  ]

  /** The shape of an answer's item as the client reads it: a list of objects by its first item. */
  const shapeOfItem = (item: Record<string, unknown>): object =>
    Object.fromEntries(
      Object.entries(item).map(([name, value]) => {
        const first: unknown = Array.isArray(value) ? value[0] : value
        const isObject = first !== null && typeof first === 'object'
        return [name, isObject ? shapeOfItem(first as Record<string, unknown>) : true]
      }),
    )

  test.each(READS)('$path answers exactly the fields its shape names', async ({ path, shape, withTask }) => {
    const { task, browser } = await world()
    const request = rpcRequest(path, withTask ? { taskId: task.id } : undefined, {
      method: 'GET',
      headers: { Cookie: browser.cookie },
    })
    const answer = (await readRpcJson(await answerThroughRpcRoute(request))) as Record<string, unknown>[]
    expect(answer.length).toBeGreaterThan(0)
    for (const item of answer) expect(shapeOfItem(item)).toEqual(shape)
    expect(ANSWER_SHAPES[path]).toBe(answerShape(shape))
  })

  test.each(READS)(
    '$path: an ETag of the release before a field was added is not confirmed (no 304), and no answer built before is served',
    async ({ path, shape, withTask }) => {
      const { db, ada, task, browser } = await world()
      const request = (ifNoneMatch?: string) =>
        rpcRequest(path, withTask ? { taskId: task.id } : undefined, {
          method: 'GET',
          headers: { Cookie: browser.cookie, ...(ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {}) },
        })
      // The ETag a browser holds from this release, which the route confirms while nothing changes.
      const etag = (await answerThroughRpcRoute(request())).headers.get('ETag') ?? ''
      expect(etag).not.toBe('')
      expect((await answerThroughRpcRoute(request(etag))).status).toBe(304)

      // The next release adds a field to the view: same data, same version, another shape.
      const nextRelease = { ...ANSWER_SHAPES, [path]: answerShape({ ...shape, fieldOfTheNextRelease: true }) }
      const url = new URL(request().url)
      const caller = async () => toSessionUser(ada)
      const headers = { ifNoneMatch: etag, acceptEncoding: null }
      expect((await answerFromVersion(url, caller, headers, db)).known?.status).toBe(304)
      const next = await answerFromVersion(url, caller, headers, db, nextRelease)
      expect(next.etag).not.toBeNull()
      expect(next.etag).not.toBe(etag)
      expect(next.known).toBeNull()
    },
  )
})

describe('versions move with workspace membership', () => {
  test('a member removed from a workspace is never told their list is current: the poll answers anew, without its tasks', async () => {
    const db = database()
    const owner = await createUser(db)
    const member = await createUser(db)
    const [team] = await db
      .insert(workspaces)
      .values({ name: 'Team', slug: `team-${crypto.randomUUID().slice(0, 8)}` })
      .returning()
    if (!team) throw new Error('no workspace')
    await db.insert(workspaceMembers).values([
      { workspaceId: team.id, userId: owner.id, role: 'owner' },
      { workspaceId: team.id, userId: member.id, role: 'member' },
    ])
    const task = await createTask(db, { userId: owner.id, workspaceId: team.id })
    const browser = await signedInBrowser(db, member.id)
    const poll = (ifNoneMatch?: string) =>
      answerThroughRpcRoute(
        rpcRequest('task/getAll', undefined, {
          method: 'GET',
          headers: { Cookie: browser.cookie, ...(ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {}) },
        }),
      )
    const first = await poll()
    const etag = first.headers.get('ETag') ?? ''
    const ids = (answer: unknown) => (answer as { id: string }[]).map((item) => item.id)
    expect(ids(await readRpcJson(first))).toContain(task.id)
    expect((await poll(etag)).status).toBe(304)

    // Removed, with no task event at all: only the membership changed.
    await db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, team.id), eq(workspaceMembers.userId, member.id)))
    const after = await poll(etag)
    expect(after.status).toBe(200)
    expect(ids(await readRpcJson(after))).not.toContain(task.id)
  })
})
