import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { comments, notifications, tasks, workspaceMembers, workspaces } from '~/db/schema'
import { READ_TOKEN_TOOL_MESSAGE } from '~/mcp/server.server'
import { TOOLS, type ToolName } from '~/mcp/tools.server'
import { action, loader, TOKEN_REQUIRED_MESSAGE } from '~/routes/mcp'
import { createApiToken, revokeApiToken } from '~/services/api-tokens.server'
import { toSessionUser } from '~/services/sessions.server'
import { clientContext, respondThroughMiddleware, signedInBrowser } from '../helpers/auth'
import {
  createComment,
  createMentionNotification,
  createTask,
  createUser,
  shareTask,
} from '../helpers/factories'
import { serveFetch, type TestServer } from '../helpers/http-server'

/**
 * /mcp from the outside: the official MCP client and its Streamable HTTP transport against the
 * route through the root middleware and the production request adapter, on a real port. Every
 * tool is called; a `read` token is refused on every tool that writes; a stranger's private task
 * never comes back from any tool; a revoked token, or none, is refused.
 */

const db = database()
let server: TestServer
let ada: ReturnType<typeof toSessionUser>
let grace: ReturnType<typeof toSessionUser>
let eve: ReturnType<typeof toSessionUser>
let writeToken: string
let readToken: string
let eveToken: string
let adaTaskId: string
let secretTaskId: string
let sharedTaskId: string

beforeAll(async () => {
  server = await serveFetch((request) =>
    respondThroughMiddleware(request.method === 'GET' ? loader : action, {
      request,
      url: new URL(request.url),
      params: {},
      context: clientContext(),
      pattern: '/mcp',
    }),
  )
  ada = toSessionUser(await createUser(db, { name: 'Ada Agent' }))
  grace = toSessionUser(await createUser(db, { name: 'Grace Colleague' }))
  eve = toSessionUser(await createUser(db, { name: 'Eve Stranger' }))
  writeToken = (await createApiToken(db, ada, { name: 'Claude', scope: 'read-write', expiry: 'none' })).token
  readToken = (await createApiToken(db, ada, { name: 'Reader', scope: 'read', expiry: 'none' })).token
  eveToken = (await createApiToken(db, eve, { name: 'Eve’s agent', scope: 'read-write', expiry: 'none' }))
    .token
  const own = await createTask(db, { userId: ada.id, text: 'Ada’s lighthouse plan', dueDate: '2020-01-01' })
  adaTaskId = own.id
  await shareTask(db, own.id, [grace.email])
  await createComment(db, { taskId: own.id, userId: ada.id, content: 'Lighthouse lamp needs oil' })
  const secret = await createTask(db, { userId: ada.id, text: 'Ada’s private lighthouse diary' })
  secretTaskId = secret.id
  await createComment(db, { taskId: secret.id, userId: ada.id, content: 'lighthouse secret' })
  const shared = await createTask(db, { userId: grace.id, text: 'Grace shares the lighthouse rota' })
  sharedTaskId = shared.id
  await shareTask(db, shared.id, [ada.email])
  const mentioned = await createComment(db, { taskId: shared.id, userId: grace.id, content: '@Ada look' })
  await createMentionNotification(db, { recipientId: ada.id, taskId: shared.id, commentId: mentioned.id })
})

afterAll(() => server.close())

async function connect(token?: string) {
  const client = new Client({ name: 'threadwork-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  })
  await client.connect(transport)
  return client
}

const call = async (client: Client, name: ToolName, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

/** Arguments each tool is called with by someone who may do it (the ids are filled in when known). */
function argumentsFor(name: ToolName): Record<string, unknown> {
  switch (name) {
    case 'list_workspaces':
      return {}
    case 'list_tasks':
      return { due: 'overdue', sort: 'due' }
    case 'search':
      return { query: 'lighthouse' }
    case 'get_task':
      return { taskId: adaTaskId }
    case 'create_task':
      return { text: 'Made by an agent', dueDate: '2030-05-01' }
    case 'update_task':
      return { taskId: adaTaskId, status: 'In Progress', dueDate: '2031-01-02', details: 'Agent was here' }
    case 'add_comment':
      return { taskId: adaTaskId, content: 'Hello @Grace', mentions: [grace.email] }
    case 'list_notifications':
      return {}
    case 'mark_notifications_read':
      return {}
  }
}

const toolNames = Object.keys(TOOLS) as ToolName[]
const writeTools = toolNames.filter((name) => !TOOLS[name].isReadOnly)

describe('/mcp with a read-write token', () => {
  test('initializes statelessly and lists every tool with its annotations and input schema', async () => {
    const client = await connect(writeToken)
    expect(client.getServerVersion()?.name).toBe('threadwork')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames].sort())
    for (const tool of tools) {
      const definition = TOOLS[tool.name as ToolName]
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(definition.isReadOnly)
      if (!definition.isReadOnly) expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean')
      expect(tool.description, tool.name).toBeTruthy()
      expect(tool.inputSchema.type).toBe('object')
    }
    const createTask = tools.find((tool) => tool.name === 'create_task')
    expect(createTask?.inputSchema.required).toEqual(['text'])
    await client.close()
  })

  test('no Mcp-Session-Id: each request stands alone', async () => {
    const response = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${writeToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Mcp-Session-Id')).toBeNull()
  })

  test('calls every tool as its person, with text and structured content', async () => {
    const client = await connect(writeToken)
    for (const name of toolNames) {
      const result = await call(client, name, argumentsFor(name))
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy()
      expect(result.structuredContent, name).toBeTypeOf('object')
      expect(JSON.parse(textOf(result)), name).toEqual(
        'items' in (result.structuredContent ?? {})
          ? result.structuredContent?.items
          : result.structuredContent,
      )
    }
    const [created] = await db.select().from(tasks).where(eq(tasks.text, 'Made by an agent'))
    expect(created).toMatchObject({ userId: ada.id, dueDate: '2030-05-01' })
    const [updated] = await db.select().from(tasks).where(eq(tasks.id, adaTaskId))
    expect(updated).toMatchObject({ status: 'In Progress', dueDate: '2031-01-02', details: 'Agent was here' })
    const [comment] = await db.select().from(comments).where(eq(comments.content, 'Hello @Grace'))
    expect(comment?.userId).toBe(ada.id)
    const graceNotified = await db.select().from(notifications).where(eq(notifications.recipientId, grace.id))
    expect(graceNotified).toHaveLength(1)
    const adaUnread = await db.select().from(notifications).where(eq(notifications.recipientId, ada.id))
    expect(adaUnread.every((row) => row.isRead)).toBe(true)
    await client.close()
  })

  test('the filters of the task list, and a shared task’s status', async () => {
    const client = await connect(writeToken)
    const overdue = await call(client, 'list_tasks', { due: 'overdue' })
    const groups = overdue.structuredContent as {
      mine: { tasks: { text: string }[] }
      shared: { text: string }[]
    }
    expect(groups.mine.tasks.map((task) => task.text)).not.toContain('Ada’s private lighthouse diary')
    const byStatus = await call(client, 'list_tasks', { status: 'In Progress' })
    expect((byStatus.structuredContent as typeof groups).mine.tasks.map((task) => task.text)).toEqual([
      'Ada’s lighthouse plan',
    ])
    const status = await call(client, 'update_task', { taskId: sharedTaskId, status: 'Completed' })
    expect(status.isError, textOf(status)).toBeFalsy()
    const refused = await call(client, 'update_task', { taskId: sharedTaskId, text: 'Not yours to rename' })
    expect(refused.isError).toBe(true)
    const bad = await call(client, 'list_tasks', { status: 'Someday' })
    expect(bad.isError).toBe(true)
    await client.close()
  })

  test('update_task changes any field of an update, as task.update does, and leaves the rest', async () => {
    const task = await createTask(db, {
      userId: ada.id,
      text: 'Ada’s buoy survey',
      details: 'Kept as it was',
    })
    const client = await connect(writeToken)
    const changes = { hrs: 3, refLink: 'https://example.com/buoys', isPublic: true, priority: 'high' }
    const result = await call(client, 'update_task', { taskId: task.id, ...changes })
    expect(result.isError, textOf(result)).toBeFalsy()
    const [row] = await db.select().from(tasks).where(eq(tasks.id, task.id))
    expect(row).toMatchObject({ ...changes, text: 'Ada’s buoy survey', details: 'Kept as it was' })
    await client.close()
  })
})

describe('/mcp in workspaces', () => {
  test('a token acts as its person in every workspace they are in, and in no other', async () => {
    const [team] = await db
      .insert(workspaces)
      .values({ name: 'Lighthouse crew', slug: `lighthouse-crew-${Date.now()}` })
      .returning()
    if (!team) throw new Error('no workspace')
    await db.insert(workspaceMembers).values([
      { workspaceId: team.id, userId: grace.id, role: 'owner' },
      { workspaceId: team.id, userId: ada.id, role: 'member' },
    ])
    await createTask(db, { userId: grace.id, workspaceId: team.id, text: 'Crew lighthouse watch rota' })
    const client = await connect(writeToken)

    const listed = await call(client, 'list_workspaces')
    const { workspaces: theirs } = listed.structuredContent as { workspaces: { id: string; role: string }[] }
    expect(theirs.map((workspace) => [workspace.id, workspace.role])).toEqual([
      [ada.id, 'owner'],
      [team.id, 'member'],
    ])

    const created = await call(client, 'create_task', { text: 'Oil the crew lamp', workspaceId: team.id })
    expect(created.isError, textOf(created)).toBeFalsy()
    expect(created.structuredContent).toMatchObject({ workspaceId: team.id, userId: ada.id })
    const inTeam = await call(client, 'list_tasks', { workspaceId: team.id })
    // The team's tasks, whoever created them: the new one first.
    const mine = (inTeam.structuredContent as { mine: { tasks: { text: string }[] } }).mine.tasks
    expect(mine.map((task) => task.text)).toEqual(['Oil the crew lamp', 'Crew lighthouse watch rota'])
    const inPersonal = await call(client, 'list_tasks', { workspaceId: ada.id })
    expect(textOf(inPersonal)).not.toContain('Oil the crew lamp')

    // A teammate's task is found in the team, and not among Ada's personal workspace's.
    const found = await call(client, 'search', { query: 'lighthouse', workspaceId: team.id })
    const hits = (found.structuredContent as { tasks: { text: string }[] }).tasks.map((task) => task.text)
    expect(hits).toEqual(['Crew lighthouse watch rota'])
    const personal = await call(client, 'search', { query: 'lighthouse', workspaceId: ada.id })
    expect(textOf(personal)).not.toContain('Crew lighthouse watch rota')
    expect(textOf(personal)).toContain('Ada’s lighthouse plan')
    await client.close()

    // Eve is in neither: each tool answers as for a workspace that does not exist, and makes nothing.
    const eves = await connect(eveToken)
    const before = await db.select().from(tasks)
    for (const [name, args] of [
      ['list_tasks', { workspaceId: team.id }],
      ['search', { query: 'lighthouse', workspaceId: team.id }],
      ['create_task', { text: 'Eve sneaks in', workspaceId: team.id }],
      ['create_task', { text: 'Eve sneaks in', workspaceId: 'no-such-workspace' }],
    ] as [ToolName, Record<string, unknown>][]) {
      const result = await call(eves, name, args)
      expect(result.isError, name).toBe(true)
      expect(textOf(result), name).toBe('Workspace not found')
    }
    expect(await db.select().from(tasks)).toEqual(before)
    await eves.close()
  })
})

describe('/mcp refuses', () => {
  test.each(writeTools)('%s for a read token, and changes nothing', async (name) => {
    const client = await connect(readToken)
    const before = {
      tasks: await db.select().from(tasks),
      comments: await db.select().from(comments),
      notifications: await db.select().from(notifications),
    }
    const result = await call(client, name, argumentsFor(name))
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe(READ_TOKEN_TOOL_MESSAGE)
    expect({
      tasks: await db.select().from(tasks),
      comments: await db.select().from(comments),
      notifications: await db.select().from(notifications),
    }).toEqual(before)
    await client.close()
  })

  test('a read token may use every read tool', async () => {
    const client = await connect(readToken)
    for (const name of toolNames.filter((each) => TOOLS[each].isReadOnly)) {
      expect((await call(client, name, argumentsFor(name))).isError, name).toBeFalsy()
    }
    await client.close()
  })

  test('a stranger’s private task from every tool', async () => {
    const client = await connect(eveToken)
    const attempts: [ToolName, Record<string, unknown>][] = [
      ['list_workspaces', {}],
      ['list_tasks', {}],
      ['search', { query: 'lighthouse' }],
      ['search', { query: 'secret' }],
      ['get_task', { taskId: secretTaskId }],
      ['update_task', { taskId: secretTaskId, status: 'Completed' }],
      ['update_task', { taskId: secretTaskId, text: 'Taken over' }],
      ['add_comment', { taskId: secretTaskId, content: 'Eve was here' }],
      ['create_task', { text: 'Eve’s own', parentTaskId: secretTaskId }],
      ['list_notifications', {}],
      ['mark_notifications_read', {}],
    ]
    expect(new Set(attempts.map(([name]) => name))).toEqual(new Set(toolNames))
    for (const [name, args] of attempts) {
      const text = textOf(await call(client, name, args))
      expect(text, name).not.toContain('private lighthouse diary')
      expect(text, name).not.toContain(secretTaskId)
      expect(text, name).not.toContain('lighthouse secret')
    }
    const [secret] = await db.select().from(tasks).where(eq(tasks.id, secretTaskId))
    expect(secret).toMatchObject({ text: 'Ada’s private lighthouse diary', status: 'Not Started' })
    await client.close()
  })

  test('without a token, with only a session cookie, with a bad or revoked token: 401 with WWW-Authenticate', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.origin}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    const cookie = (await signedInBrowser(db, ada.id)).cookie
    const { token, view } = await createApiToken(db, ada, { name: 'Revoked', scope: 'read', expiry: 'none' })
    await revokeApiToken(db, ada, view.id)
    const attempts: Record<string, string>[] = [
      {},
      { Cookie: cookie },
      { Authorization: 'Bearer tw_pat_nope' },
      { Authorization: `Bearer ${token}` },
    ]
    for (const headers of attempts) {
      const response = await post(headers)
      expect(response.status).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer realm=/)
    }
    expect(await (await post({})).json()).toEqual({ code: 'UNAUTHORIZED', message: TOKEN_REQUIRED_MESSAGE })
    await expect(connect(token)).rejects.toThrow()
  })

  test('GET and DELETE: 405, as a stateless server answers', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.origin}/mcp`, {
        method,
        headers: { Authorization: `Bearer ${readToken}` },
      })
      expect(response.status, method).toBe(405)
    }
  })

  test('a body over the endpoints’ bound: 413 before anything reads it', async () => {
    const response = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${readToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { pad: 'x'.repeat(70_000) },
      }),
    })
    expect(response.status).toBe(413)
  })
})
