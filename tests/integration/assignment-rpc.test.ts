import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events, tasks } from '~/db/schema'
import { CANNOT_BE_ASSIGNED } from '~/services/tasks/assignment.server'
import { NOT_ALLOWED } from '~/services/tasks/rule.server'
import { signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createTask, createUser, shareTask } from '../helpers/factories'
import { type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * Assignments over RPC (docs/product-rules.md §1, §5): `assigneeId` on task.create and task.update
 * through `@orpc/client`'s RPCLink, unchanged, over real HTTP; task.get returns it with the name.
 */

const db = database()

let server: RpcServer
type Person = 'owner' | 'sharee' | 'stranger'
const people = {} as Record<Person, Awaited<ReturnType<typeof createUser>>>
const browsers = {} as Record<Person, TestBrowser>

beforeAll(async () => {
  server = await startRpcServer()
  people.owner = await createUser(db, { name: 'Ada Owner' })
  people.sharee = await createUser(db, { name: 'Grace Shared' })
  people.stranger = await createUser(db, { name: 'Eve Stranger' })
  for (const person of Object.keys(people) as Person[]) {
    browsers[person] = await signedInBrowser(db, people[person].id)
  }
})

afterAll(() => server.close())

const clientOf = (who: Person) => server.clientAs(browsers[who])

async function rejection(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    return error as { code: string; status: number; message: string }
  }
  throw new Error('Expected the call to be rejected')
}

async function sharedTask(isPublic = false) {
  const task = await createTask(db, { userId: people.owner.id, text: 'Plan the offsite', isPublic })
  await shareTask(db, task.id, [people.sharee.email])
  return task
}

const assigneeOf = async (taskId: string) =>
  (await db.select({ assigneeId: tasks.assigneeId }).from(tasks).where(eq(tasks.id, taskId)))[0]?.assigneeId

describe('assigneeId over RPC', () => {
  test('the owner assigns a sharee; task.get returns the assignee and their name; a task-updated event', async () => {
    const task = await sharedTask()
    const updated = await clientOf('owner').task.update({ taskId: task.id, assigneeId: people.sharee.id })
    expect(updated).toMatchObject({ assigneeId: people.sharee.id, assigneeName: 'Grace Shared' })
    expect(await clientOf('sharee').task.get({ taskId: task.id })).toMatchObject({
      assigneeId: people.sharee.id,
      assigneeName: 'Grace Shared',
    })
    const types = (await db.select().from(events).where(eq(events.taskId, task.id))).map((row) => row.type)
    expect(types).toEqual(expect.arrayContaining(['task-updated', 'mention']))
  })

  test('create takes the owner themself, or a verified person it is shared with', async () => {
    const mine = await clientOf('owner').task.create({ text: 'Mine to do', assigneeId: people.owner.id })
    expect(mine).toMatchObject({ assigneeId: people.owner.id, assigneeName: 'Ada Owner' })
    const theirs = await clientOf('owner').task.create({
      text: 'Theirs to do',
      sharedWith: [people.sharee.email],
      assigneeId: people.sharee.id,
    })
    expect(theirs).toMatchObject({ assigneeId: people.sharee.id })
  })

  test('a stranger is refused: 400 with the reason, and nothing changes', async () => {
    const task = await sharedTask(true)
    const refused = await rejection(
      clientOf('owner').task.update({ taskId: task.id, text: 'Renamed', assigneeId: people.stranger.id }),
    )
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', status: 400, message: CANNOT_BE_ASSIGNED })
    expect(await db.select().from(tasks).where(eq(tasks.id, task.id))).toMatchObject([
      { text: 'Plan the offsite', assigneeId: null },
    ])
  })

  test('the assignee hands it back with { taskId, assigneeId: null }, the one change they may make', async () => {
    const task = await sharedTask()
    await clientOf('owner').task.update({ taskId: task.id, assigneeId: people.sharee.id })
    expect(
      await rejection(clientOf('sharee').task.update({ taskId: task.id, assigneeId: people.owner.id })),
    ).toMatchObject({ code: 'FORBIDDEN', message: NOT_ALLOWED })
    const handed = await clientOf('sharee').task.update({ taskId: task.id, assigneeId: null })
    expect(handed).toMatchObject({ assigneeId: null, assigneeName: null })
    expect(await assigneeOf(task.id)).toBeNull()
  })

  test('old callers that send neither field keep working and leave the assignee as it was', async () => {
    const task = await sharedTask()
    await clientOf('owner').task.update({ taskId: task.id, assigneeId: people.sharee.id })
    await clientOf('owner').task.update({ taskId: task.id, text: 'Plan the offsite, v2' })
    expect(await assigneeOf(task.id)).toBe(people.sharee.id)
    const unsharedEvents = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, task.id), eq(events.type, 'task-updated')))
    expect(unsharedEvents.length).toBeGreaterThanOrEqual(2)
    await clientOf('owner').task.share({ taskId: task.id, emails: [] })
    expect(await assigneeOf(task.id)).toBeNull()
  })
})
