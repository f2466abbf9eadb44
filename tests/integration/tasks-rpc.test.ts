import { asc, count, eq, gt, max } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { INVALID_CSRF_MESSAGE } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { events, taskShares, tasks } from '~/db/schema'
import { NOT_ALLOWED, TASK_NOT_FOUND } from '~/services/tasks/rule.server'
import { TASK_VIEW_FIELDS } from '~/services/tasks/view-fields'
import { anonymousBrowser, signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createTask, createUser, shareTask } from '../helpers/factories'
import { type RpcClient, type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * task.* from the outside (docs/product-rules.md §5): `@orpc/client`'s RPCLink, unchanged, over real HTTP
 * against the app's /api/rpc route module, authenticated by the session cookie and carrying the
 * CSRF header a page would. The full permission matrix is in app/services/tasks/rule.server.test.ts;
 * here a sample of its cells, as a client sees them (codes, statuses, messages, the wire shape).
 */

const db = database()

let server: RpcServer
type Person = 'owner' | 'shared-verified' | 'shared-unverified' | 'stranger'
const people = {} as Record<Person, Awaited<ReturnType<typeof createUser>>>
const browsers = {} as Record<Person | 'anonymous', TestBrowser>

beforeAll(async () => {
  server = await startRpcServer()
  people.owner = await createUser(db, { name: 'Ada Owner' })
  people['shared-verified'] = await createUser(db, { name: 'Grace Shared' })
  people['shared-unverified'] = await createUser(db, { name: 'Mallory Unverified', emailVerifiedAt: null })
  people.stranger = await createUser(db, { name: 'Eve Stranger' })
  for (const person of Object.keys(people) as Person[]) {
    browsers[person] = await signedInBrowser(db, people[person].id)
  }
  browsers.anonymous = anonymousBrowser()
})

afterAll(() => server.close())

function clientOf(who: Person | 'anonymous', options: { withCsrf?: boolean; method?: 'GET' | 'POST' } = {}) {
  return server.clientAs(browsers[who], options)
}

type Kind = 'private' | 'shared' | 'public'

async function taskOf(kind: Kind) {
  const task = await createTask(db, {
    userId: people.owner.id,
    text: `A ${kind} task`,
    isPublic: kind === 'public',
  })
  if (kind === 'shared') {
    await shareTask(db, task.id, [people['shared-verified'].email, people['shared-unverified'].email])
  }
  return task
}

/** Every row a call could touch, to prove a refused call changed nothing. */
async function world() {
  const [taskCount] = await db.select({ n: count() }).from(tasks)
  const [shareCount] = await db.select({ n: count() }).from(taskShares)
  const [lastEvent] = await db.select({ id: max(events.id) }).from(events)
  const rows = await db.select().from(tasks).orderBy(asc(tasks.id))
  return { tasks: taskCount?.n, shares: shareCount?.n, lastEvent: lastEvent?.id ?? 0, rows }
}

async function eventTypesAfter(id: number) {
  const rows = await db.select().from(events).where(gt(events.id, id)).orderBy(asc(events.id))
  return rows.map((row) => row.type)
}

async function rejection(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    return error as { code: string; status: number; message: string; data?: unknown }
  }
  throw new Error('Expected the call to be rejected')
}

const ERRORS = {
  NOT_FOUND: { code: 'NOT_FOUND', status: 404, message: TASK_NOT_FOUND },
  FORBIDDEN: { code: 'FORBIDDEN', status: 403, message: NOT_ALLOWED },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', status: 401 },
} as const

type Procedure = 'get' | 'update' | 'setStatus' | 'share' | 'delete'
const calls: Record<Procedure, (client: RpcClient, taskId: string) => Promise<unknown>> = {
  get: (client, taskId) => client.task.get({ taskId }),
  update: (client, taskId) => client.task.update({ taskId, text: 'Renamed over RPC', hrs: 3 }),
  setStatus: (client, taskId) => client.task.setStatus({ taskId, status: 'Completed' }),
  share: (client, taskId) => client.task.share({ taskId, emails: ['someone@example.com'] }),
  delete: (client, taskId) => client.task.delete({ taskId }),
}

describe('a sample of the permission matrix, over RPC', () => {
  const SAMPLE: [Person | 'anonymous', Kind, Procedure, 'ok' | keyof typeof ERRORS][] = [
    ['owner', 'private', 'get', 'ok'],
    ['owner', 'shared', 'update', 'ok'],
    ['owner', 'public', 'share', 'ok'],
    ['owner', 'shared', 'delete', 'ok'],
    ['shared-verified', 'shared', 'get', 'ok'],
    ['shared-verified', 'shared', 'setStatus', 'ok'],
    ['shared-verified', 'shared', 'update', 'FORBIDDEN'],
    ['shared-verified', 'shared', 'share', 'FORBIDDEN'],
    ['shared-verified', 'shared', 'delete', 'FORBIDDEN'],
    ['shared-unverified', 'shared', 'get', 'NOT_FOUND'],
    ['shared-unverified', 'shared', 'setStatus', 'NOT_FOUND'],
    ['stranger', 'private', 'get', 'NOT_FOUND'],
    ['stranger', 'shared', 'update', 'NOT_FOUND'],
    ['stranger', 'private', 'delete', 'NOT_FOUND'],
    ['stranger', 'public', 'get', 'ok'],
    ['stranger', 'public', 'setStatus', 'FORBIDDEN'],
    ['stranger', 'public', 'update', 'FORBIDDEN'],
    ['anonymous', 'public', 'get', 'ok'],
    ['anonymous', 'private', 'get', 'NOT_FOUND'],
    ['anonymous', 'shared', 'get', 'NOT_FOUND'],
    // Changing needs a signed-in user before anything else is asked.
    ['anonymous', 'public', 'setStatus', 'UNAUTHORIZED'],
    ['anonymous', 'private', 'delete', 'UNAUTHORIZED'],
  ]

  test.each(SAMPLE)('%s × %s task: %s → %s', async (who, kind, procedure, expected) => {
    const task = await taskOf(kind)
    const before = await world()
    const call = calls[procedure](clientOf(who), task.id)
    if (expected !== 'ok') {
      expect(await rejection(call)).toMatchObject(ERRORS[expected])
      expect(await world()).toEqual(before)
      return
    }
    const result = await call
    if (procedure === 'delete') {
      expect(result).toEqual({ success: true })
      expect(await db.select().from(tasks).where(eq(tasks.id, task.id))).toEqual([])
    } else {
      expect(result).toMatchObject({ id: task.id })
    }
  })

  test('the owner creates, updates and deletes a task, each change with its event', async () => {
    const client = clientOf('owner')
    const [{ id: start } = { id: 0 }] = await db.select({ id: max(events.id) }).from(events)
    const created = await client.task.create({
      text: '  Plan the launch  ',
      details: 'Dates and owners',
      refLink: 'https://example.com/launch',
      priority: 'high',
      hrs: 5,
      sharedWith: [people['shared-verified'].email.toUpperCase(), 'invitee@example.com'],
    })
    expect(created).toMatchObject({
      text: 'Plan the launch',
      status: 'Not Started',
      isPublic: false,
      userId: people.owner.id,
      ownerName: 'Ada Owner',
    })
    const updated = await client.task.update({ taskId: created.id, status: 'In Progress', isPublic: true })
    expect(updated).toMatchObject({ id: created.id, status: 'In Progress', isPublic: true, priority: 'high' })
    expect(await client.task.delete({ taskId: created.id })).toEqual({ success: true })
    expect(await eventTypesAfter(start ?? 0)).toEqual([
      'task-created',
      'task-updated',
      'task-status-changed',
      'task-deleted',
    ])
    expect(await rejection(client.task.get({ taskId: created.id }))).toMatchObject(ERRORS.NOT_FOUND)
  })

  test('the owner adds a subtask; another user may not hang one under it', async () => {
    const parent = await taskOf('shared')
    const subtask = await clientOf('owner').task.create({ text: 'First step', parentTaskId: parent.id })
    expect(subtask.parentTaskId).toBe(parent.id)
    const before = await world()
    expect(
      await rejection(clientOf('shared-verified').task.create({ text: 'My step', parentTaskId: parent.id })),
    ).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
      message: 'The parent must be one of your tasks.',
      data: { issues: [{ path: ['parentTaskId'], message: 'The parent must be one of your tasks.' }] },
    })
    expect(await world()).toEqual(before)
  })
})

describe('the wire shape', () => {
  test('a task as the client receives it: e-mails, names, owner name, ISO dates', async () => {
    const task = await clientOf('owner').task.create({
      text: 'Shape check',
      sharedWith: [
        people['shared-verified'].email,
        people['shared-unverified'].email,
        'newcomer@example.com',
      ],
    })
    const seen = await clientOf('shared-verified').task.get({ taskId: task.id })
    expect(Object.keys(seen).sort()).toEqual([...TASK_VIEW_FIELDS].sort())
    expect(seen.ownerName).toBe('Ada Owner')
    // Whom it is shared with is the owner's to know: others get verified names, no address.
    expect(seen).toMatchObject({ sharedWith: [], sharedWithNames: ['Grace Shared'] })
    const own = await clientOf('owner').task.get({ taskId: task.id })
    const byAddress = Object.fromEntries(own.sharedWith.map((email, i) => [email, own.sharedWithNames[i]]))
    expect(byAddress).toEqual({
      [people['shared-verified'].email]: 'Grace Shared',
      // Not verified: the address, not the name someone typed when registering it.
      [people['shared-unverified'].email]: people['shared-unverified'].email,
      'newcomer@example.com': 'newcomer@example.com',
    })
    for (const date of [seen.createdAt, seen.updatedAt]) {
      expect(typeof date).toBe('string')
      expect(new Date(date).toISOString()).toBe(date)
    }
    expect(seen.completedAt).toBeNull()
    const done = await clientOf('shared-verified').task.setStatus({ taskId: task.id, status: 'Completed' })
    expect(new Date(done.completedAt ?? '').toISOString()).toBe(done.completedAt)
  })
})

describe('who sees whom', () => {
  test('a public task shared with people: no address reaches a visitor, a stranger or a sharee', async () => {
    const task = await taskOf('public')
    await shareTask(db, task.id, [people['shared-verified'].email, 'invitee@example.com'])
    const addresses = [people['shared-verified'].email, 'invitee@example.com']

    // Raw HTTP as a visitor's browser or a script sends it: GET with ?data=, no cookie.
    const input = encodeURIComponent(JSON.stringify({ json: { taskId: task.id } }))
    const response = await fetch(`${server.origin}/api/rpc/task/get?data=${input}`)
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(JSON.parse(text)).toMatchObject({
      json: { id: task.id, sharedWith: [], sharedWithNames: ['Grace Shared'] },
    })
    for (const address of addresses) expect(text).not.toContain(address)

    for (const who of ['anonymous', 'stranger', 'shared-verified'] as const) {
      const seen = await clientOf(who).task.get({ taskId: task.id })
      expect(seen).toMatchObject({ sharedWith: [], sharedWithNames: ['Grace Shared'] })
    }
    for (const who of ['stranger', 'shared-verified'] as const) {
      const all = JSON.stringify(await clientOf(who).task.getAll())
      for (const address of addresses) expect(all).not.toContain(address)
    }
    expect((await clientOf('owner').task.get({ taskId: task.id })).sharedWith.sort()).toEqual(
      addresses.sort(),
    )
  })
})

describe('task.getAll', () => {
  test('is a read: callable by GET, and lists own, shared and others’ public tasks', async () => {
    const mine = await createTask(db, { userId: people.stranger.id, text: 'Eve’s own' })
    const shared = await createTask(db, { userId: people.owner.id, text: 'For Eve' })
    await shareTask(db, shared.id, [people.stranger.email])
    const publicTask = await createTask(db, { userId: people.owner.id, text: 'For all', isPublic: true })
    const hidden = await createTask(db, { userId: people.owner.id, text: 'Not for Eve' })

    const all = await clientOf('stranger', { method: 'GET', withCsrf: false }).task.getAll()
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET' })
    expect(server.requests.at(-1)?.url).toMatch(/\/api\/rpc\/task\/getAll/)
    const ids = all.map((task) => task.id)
    expect(ids).toEqual(expect.arrayContaining([mine.id, shared.id, publicTask.id]))
    expect(ids).not.toContain(hidden.id)
  })

  test('answers an anonymous caller 401 UNAUTHORIZED, never a redirect', async () => {
    expect(await rejection(clientOf('anonymous', { method: 'GET' }).task.getAll())).toMatchObject(
      ERRORS.UNAUTHORIZED,
    )
    expect(await rejection(server.client().task.getAll())).toMatchObject(ERRORS.UNAUTHORIZED)
  })

  test('task.get of a public task works by GET without signing in', async () => {
    const task = await taskOf('public')
    const seen = await server.client({ method: 'GET' }).task.get({ taskId: task.id })
    expect(seen).toMatchObject({ id: task.id, isPublic: true, ownerName: 'Ada Owner' })
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET' })
  })
})

describe('CSRF: every mutation carries the page’s token', () => {
  const MUTATIONS: [string, (client: RpcClient, taskId: string) => Promise<unknown>][] = [
    ['create', (client) => client.task.create({ text: 'Sneaky task' })],
    ['update', (client, taskId) => client.task.update({ taskId, text: 'Sneaky rename' })],
    ['setStatus', (client, taskId) => client.task.setStatus({ taskId, status: 'Completed' })],
    ['share', (client, taskId) => client.task.share({ taskId, emails: ['attacker@example.com'] })],
    ['delete', (client, taskId) => client.task.delete({ taskId })],
  ]

  test.each(MUTATIONS)('%s without x-csrf-token is 403 and changes nothing', async (_, mutate) => {
    const task = await taskOf('shared')
    const before = await world()
    expect(await rejection(mutate(clientOf('owner', { withCsrf: false }), task.id))).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      message: INVALID_CSRF_MESSAGE,
    })
    expect(await world()).toEqual(before)
  })

  test.each(MUTATIONS)('%s with another session’s token is 403 and changes nothing', async (_, mutate) => {
    const task = await taskOf('shared')
    const before = await world()
    const client = server.client({
      headers: { cookie: browsers.owner.cookie, 'x-csrf-token': browsers.stranger.csrf },
    })
    expect(await rejection(mutate(client, task.id))).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect(await world()).toEqual(before)
  })

  test('a mutation sent by GET is refused, even with the token', async () => {
    const task = await taskOf('private')
    const before = await world()
    const client = clientOf('owner', { method: 'GET' })
    expect(await rejection(client.task.delete({ taskId: task.id }))).toMatchObject({ status: 405 })
    expect(await rejection(client.task.create({ text: 'By GET' }))).toMatchObject({ status: 405 })
    expect(await world()).toEqual(before)
  })
})

describe('bad input is 400 BAD_REQUEST with the issues, and changes nothing', () => {
  const BAD: [string, Record<string, unknown>, string][] = [
    ['text of 2 characters', { text: 'ab' }, 'text'],
    ['text of 2 characters inside spaces', { text: '  ab  ' }, 'text'],
    ['text of 201 characters', { text: 'x'.repeat(201) }, 'text'],
    ['details of 501 characters', { text: 'Valid', details: 'd'.repeat(501) }, 'details'],
    ['0 hours', { text: 'Valid', hrs: 0 }, 'hrs'],
    ['9 hours', { text: 'Valid', hrs: 9 }, 'hrs'],
    ['1.5 hours', { text: 'Valid', hrs: 1.5 }, 'hrs'],
    ['an ftp link', { text: 'Valid', refLink: 'ftp://x' }, 'refLink'],
    ['a link that is no URL', { text: 'Valid', refLink: 'not a url' }, 'refLink'],
    ['a bad e-mail', { text: 'Valid', sharedWith: ['grace@'] }, 'sharedWith'],
    [
      '51 e-mails',
      { text: 'Valid', sharedWith: Array.from({ length: 51 }, (_, i) => `p${i}@x.com`) },
      'sharedWith',
    ],
    ['an unknown priority', { text: 'Valid', priority: 'urgent' }, 'priority'],
    ['an unknown status', { text: 'Valid', status: 'Done' }, 'status'],
  ]

  test.each(BAD)('create with %s', async (_, input, field) => {
    const before = await world()
    const error = await rejection(clientOf('owner').task.create(input as never))
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400, message: 'Invalid input' })
    const issues = (error.data as { issues: { path: (string | number)[]; message: string }[] }).issues
    expect(issues.length).toBeGreaterThan(0)
    expect(issues.map((issue) => issue.path[0])).toContain(field)
    expect(await world()).toEqual(before)
  })

  test('update and setStatus refuse the same edges', async () => {
    const task = await taskOf('private')
    const before = await world()
    const owner = clientOf('owner')
    for (const input of [{ text: 'ab' }, { hrs: 9 }, { refLink: 'ftp://x' }, { details: 'd'.repeat(501) }]) {
      expect(await rejection(owner.task.update({ taskId: task.id, ...input }))).toMatchObject({
        code: 'BAD_REQUEST',
        status: 400,
      })
    }
    expect(
      await rejection(owner.task.setStatus({ taskId: task.id, status: 'Done' as 'Completed' })),
    ).toMatchObject({ code: 'BAD_REQUEST', status: 400 })
    expect(await rejection(owner.task.share({ taskId: task.id, emails: ['nope'] }))).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
    })
    expect(await world()).toEqual(before)
  })

  test('sharing with your own address is 400 with the issue on sharedWith', async () => {
    const task = await taskOf('private')
    const before = await world()
    const expected = {
      code: 'BAD_REQUEST',
      status: 400,
      message: 'You cannot share a task with yourself.',
      data: { issues: [{ path: ['sharedWith'], message: 'You cannot share a task with yourself.' }] },
    }
    const owner = clientOf('owner')
    expect(
      await rejection(owner.task.share({ taskId: task.id, emails: [people.owner.email] })),
    ).toMatchObject(expected)
    expect(
      await rejection(owner.task.create({ text: 'Just me', sharedWith: [people.owner.email.toUpperCase()] })),
    ).toMatchObject(expected)
    expect(await world()).toEqual(before)
  })

  test('addresses are folded and de-duplicated on the way in', async () => {
    const task = await taskOf('private')
    const shared = await clientOf('owner').task.share({ taskId: task.id, emails: ['A@x.com', 'a@X.com'] })
    expect(shared.sharedWith).toEqual(['a@x.com'])
  })
})
