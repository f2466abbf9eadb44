import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createORPCClient } from '@orpc/client'
import { RPCLink } from '@orpc/client/fetch'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { loader as rootLoader } from '~/root'
import { loader as taskListLoader } from '~/routes/tasks/index'
import { RPC_PREFIX } from '~/rpc/handler.server'
import { ASSISTANT_TASK_FIELDS, chatTools, WITHHELD_FROM_ASSISTANT } from '~/services/assistant/tools.server'
import { toSessionUser } from '~/services/sessions.server'
import type { TaskFields } from '~/services/tasks/task-schemas'
import { TASK_LIST_ITEM_FIELDS, type TaskView } from '~/services/tasks/view'
import { TASK_VIEW_FIELDS } from '~/services/tasks/view-fields'
import { createTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { createEventStreams, type EventStreams } from '~/streams/event-streams.server'
import { bodyLimit } from '../../server/body-limits'
import { fastPathStep, fastPaths } from '../../server/fast-paths'
import { createListener } from '../../server/listener'
import { runTool } from '../helpers/assistant'
import { signedInBrowser, type TestBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { callLoader } from '../helpers/route'
import { answerThroughRpcRoute, type RpcClient, rpcRequest } from '../helpers/rpc'
import { openEventSource } from '../helpers/sse'

/**
 * Every path a task is read through carries every field of the task view
 * (app/services/tasks/view-fields.ts), taken from the view's own list at run time, each with the
 * value that was written: a field added to `TaskView` is demanded here of each path at once, and a
 * path that forgets it, or answers it with another value, fails by name. The fixture sets every
 * field of the form (`Required<TaskFields>`: a field added there fails `tsc` here until it has a
 * value), so none is checked only while empty. The
 * fast paths are the production ones (server/fast-paths.ts), in the production order, on one real HTTP
 * server, then the /api/rpc route; the pages are
 * their loaders; the assistant is its tools.
 */

const db = database()
const sorted = (fields: readonly string[]) => [...fields].sort()
const fieldsOf = (value: unknown) => sorted(Object.keys(value as object))
const VIEW = sorted(TASK_VIEW_FIELDS)

let server: Server
let origin = ''
let streams: EventStreams
let owner: Awaited<ReturnType<typeof createUser>>
let sharee: Awaited<ReturnType<typeof createUser>>
let browser: TestBrowser
/** A parent with a subtask, every optional field set, shared with a verified person. */
let parent: { id: string }
let subtask: { id: string }
/** Each as every read path must answer it: what was written, and what the service adds. */
let views: { parent: TaskView; subtask: TaskView }

/** The fields of the form as they were written: each is a field of the view, with that value. */
const written = (fields: Partial<TaskFields>): Partial<TaskView> => ({ ...fields })

/** A task's instants as the view carries them, read from its row. */
async function instantsOf(taskId: string) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, taskId))
  if (!row) throw new Error(`No task ${taskId}`)
  return {
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

const pick = <Field extends keyof TaskView>(task: TaskView, fields: readonly Field[]) =>
  Object.fromEntries(fields.map((field) => [field, task[field]]))

beforeAll(async () => {
  streams = createEventStreams(db, { keepAliveMs: 1000, sessionCheckMs: 1000 })
  const doors = fastPathStep(fastPaths({ db: () => db, eventStreams: () => streams }))
  const route = createListener({
    publicOrigin: new URL('http://127.0.0.1'),
    trustProxy: false,
    bodyLimit,
    handle: answerThroughRpcRoute,
    log: (message, error) => console.error(message, error),
  })
  server = createServer((req, res) => doors(req, res, () => route(req, res)))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  owner = await createUser(db, { name: 'Ada Owner' })
  sharee = await createUser(db, { name: 'Grace Shared' })
  browser = await signedInBrowser(db, owner.id)
  const actor = toSessionUser(owner)
  const parentFields = {
    text: 'Plan the release',
    details: 'Dates and scope',
    refLink: 'https://example.com/release',
    priority: 'high',
    status: 'In Progress',
    hrs: 3,
    dueDate: '2030-03-15',
    isPublic: false,
    assigneeId: sharee.id,
    sharedWith: [sharee.email],
    workspaceId: owner.id,
  } satisfies Required<Omit<TaskFields, 'parentTaskId'>>
  parent = await createTask(db, actor, parentFields)
  const subtaskFields = {
    text: 'Draft the notes',
    details: 'Short',
    refLink: 'https://example.com/notes',
    priority: 'low',
    status: 'Completed',
    hrs: 1,
    dueDate: '2030-03-01',
    isPublic: false,
    parentTaskId: parent.id,
    assigneeId: owner.id,
    sharedWith: [],
    workspaceId: owner.id,
  } satisfies Required<TaskFields>
  subtask = await createTask(db, actor, subtaskFields)
  views = {
    parent: {
      ...written(parentFields),
      id: parent.id,
      parentTaskId: null,
      userId: owner.id,
      ownerName: 'Ada Owner',
      sharedWithNames: ['Grace Shared'],
      assigneeName: 'Grace Shared',
      assigneeImage: sharee.image,
      ...(await instantsOf(parent.id)),
      subtaskCount: 1,
      subtasksCompleted: 1,
    } as TaskView,
    subtask: {
      ...written(subtaskFields),
      id: subtask.id,
      userId: owner.id,
      ownerName: 'Ada Owner',
      sharedWithNames: [],
      assigneeName: 'Ada Owner',
      assigneeImage: owner.image,
      ...(await instantsOf(subtask.id)),
      subtaskCount: 0,
      subtasksCompleted: 0,
    } as TaskView,
  }
  // The fixture is what every read path below is held to: each of its fields set, the instants too.
  for (const task of [views.parent, views.subtask]) expect(fieldsOf(task)).toEqual(VIEW)
  expect(views.subtask.completedAt).not.toBeNull()
  expect(views.parent.dueDate).not.toBeNull()
})

afterAll(async () => {
  streams.close()
  server.closeAllConnections()
  server.close()
  await once(server, 'close')
})

function rpcClient(method: 'GET' | 'POST' = 'GET') {
  return createORPCClient<RpcClient>(
    new RPCLink({
      url: `${origin}${RPC_PREFIX}`,
      method,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf },
    }),
  )
}

describe('RPC over HTTP (RPCLink)', () => {
  test('task.get, task.getAll and the dashboard’s latest tasks carry every field of the view', async () => {
    const client = rpcClient()
    const one = await client.task.get({ taskId: parent.id })
    expect(fieldsOf(one)).toEqual(VIEW)
    expect(one).toEqual(views.parent)
    const all = await client.task.getAll()
    expect(all.map((task) => task.id).sort()).toEqual([parent.id, subtask.id].sort())
    for (const task of all) expect(fieldsOf(task)).toEqual(VIEW)
    expect(all).toEqual(expect.arrayContaining([views.parent, views.subtask]))
    const completed = await client.task.getMostRecentCompleted()
    expect(fieldsOf(completed)).toEqual(VIEW)
    expect(completed).toEqual(views.subtask)
    const created = await client.task.getMostRecentCreated()
    expect(fieldsOf(created)).toEqual(VIEW)
    // Created in the same millisecond, the two are ordered by id.
    expect(created).toEqual(created?.id === parent.id ? views.parent : views.subtask)
  })

  test('the answers of the writes are the view too', async () => {
    const client = rpcClient('POST')
    const created = await client.task.create({ text: 'Book the venue' })
    expect(fieldsOf(created)).toEqual(VIEW)
    expect(fieldsOf(await client.task.update({ taskId: created.id, hrs: 2 }))).toEqual(VIEW)
    expect(fieldsOf(await client.task.setStatus({ taskId: created.id, status: 'Completed' }))).toEqual(VIEW)
    expect(fieldsOf(await client.task.share({ taskId: created.id, emails: [] }))).toEqual(VIEW)
    await client.task.delete({ taskId: created.id })
  })
})

test('the versioned read ahead of React Router serves the answer built with every field, and a 304 only for it', async () => {
  const url = new URL(rpcRequest('task/getAll', undefined, { method: 'GET' }).url)
  const target = `${origin}${url.pathname}${url.search}`
  // The route builds the answer and keeps it; the step ahead of the router serves it from then on.
  const built = await fetch(target, { headers: { Cookie: browser.cookie } })
  const etag = built.headers.get('ETag') ?? ''
  expect(etag).not.toBe('')
  await built.arrayBuffer()
  const kept = await fetch(target, { headers: { Cookie: browser.cookie } })
  expect(kept.headers.get('ETag')).toBe(etag)
  const { json } = (await kept.json()) as { json: unknown[] }
  expect(json.length).toBe(2)
  for (const task of json) expect(fieldsOf(task)).toEqual(VIEW)
  expect(json).toEqual(expect.arrayContaining([views.parent, views.subtask]))
  const confirmed = await fetch(target, { headers: { Cookie: browser.cookie, 'If-None-Match': etag } })
  expect(confirmed.status).toBe(304)
})

describe('the pages', () => {
  test('the task list carries every field of its declared subset of the view, and only those', async () => {
    expect(TASK_LIST_ITEM_FIELDS.every((field) => TASK_VIEW_FIELDS.includes(field))).toBe(true)
    const { status, data } = await callLoader(taskListLoader, {
      url: '/task',
      headers: { Cookie: browser.cookie },
    })
    expect(status).toBe(200)
    const [row, ...others] = data.groups.mine.tasks
    expect(others).toEqual([])
    expect(row?.id).toBe(parent.id)
    expect(fieldsOf(row)).toEqual(sorted(TASK_LIST_ITEM_FIELDS))
    expect(row).toEqual(pick(views.parent, TASK_LIST_ITEM_FIELDS))
  })

  test('the task modal (the root loader with ?task=) carries every field of the view, for the task and its subtasks', async () => {
    const { data } = await callLoader(rootLoader, {
      url: `/task?task=${parent.id}`,
      headers: { Cookie: browser.cookie },
    })
    const modal = data.taskModal
    if (!modal || 'error' in modal) throw new Error(`No task in the modal: ${JSON.stringify(modal)}`)
    expect(fieldsOf(modal.task)).toEqual(VIEW)
    expect(modal.task).toEqual(views.parent)
    expect(modal.subtasks.map((task) => task.id)).toEqual([subtask.id])
    for (const task of modal.subtasks) expect(fieldsOf(task)).toEqual(VIEW)
    expect(modal.subtasks).toEqual([views.subtask])
  })
})

test('the task stream carries no copy of a task, only which task changed: whoever hears reads it through a path above', async () => {
  // A stream event names the task; the page reloads its data through its loader. An event that
  // started carrying a task's fields would be one more read path, and would have to carry them all.
  const REFERENCES = ['taskId', 'userId', 'oldStatus', 'newStatus']
  const stream = openEventSource(`${origin}/api/events/tasks`, browser.cookie)
  try {
    await stream.waitFor('ready')
    const actor = toSessionUser(owner)
    await updateTask(db, actor, parent.id, { details: 'Dates, scope and owners' })
    await setTaskStatus(db, actor, parent.id, 'Completed')
    const updated = await stream.waitFor('task-updated', (event) => event.data.taskId === parent.id)
    const moved = await stream.waitFor('task-status-changed', (event) => event.data.taskId === parent.id)
    for (const event of [updated, moved]) {
      expect(Object.keys(event.data).filter((field) => !REFERENCES.includes(field))).toEqual([])
    }
  } finally {
    stream.close()
  }
})

describe('the AI assistant’s tools', () => {
  test('every field of the view is either carried or withheld by name', () => {
    expect(sorted([...ASSISTANT_TASK_FIELDS, ...Object.keys(WITHHELD_FROM_ASSISTANT)])).toEqual(VIEW)
  })

  test('each tool that answers with tasks carries every field the assistant is given', async () => {
    const tools = chatTools(db, toSessionUser(owner))
    const expected = sorted([...ASSISTANT_TASK_FIELDS, 'assignedToYou', 'link'])
    const listed = (await runTool(tools.listMyTasks, {})) as { tasks: unknown[] }
    const found = (await runTool(tools.searchMyTasks, { query: 'release' })) as { tasks: unknown[] }
    expect(listed.tasks.length).toBe(2)
    expect(found.tasks.length).toBe(1)
    for (const task of [...listed.tasks, ...found.tasks]) expect(fieldsOf(task)).toEqual(expected)
    const created = (await runTool(tools.createTask, { text: 'Ask for quotes' })) as { id: string }
    expect(fieldsOf(created)).toEqual(expected)
    expect(fieldsOf(await runTool(tools.updateTask, { taskId: created.id, hrs: 2 }))).toEqual(expected)
    expect(fieldsOf(await runTool(tools.setTaskStatus, { taskId: created.id, status: 'Completed' }))).toEqual(
      expected,
    )
  })
})
