import { test } from '@fast-check/vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { SEARCH_LIMITS, STATUSES } from '~/domain/constants'
import { handleMcp } from '~/mcp/server.server'
import type { ToolName } from '~/mcp/tools.server'
import { loader as rootLoader } from '~/root'
import { loader as taskListLoader } from '~/routes/tasks/index'
import { chatTools } from '~/services/assistant/tools.server'
import type { SessionUser } from '~/services/session-user'
import { setActiveWorkspace, toSessionUser } from '~/services/sessions.server'
import { TASK_NOT_FOUND } from '~/services/tasks/rule.server'
import {
  buildWorld,
  createPeople,
  isModelSharedWith,
  type ModelTask,
  modelVisible,
  viewersOf,
  world,
} from '~/services/tasks/workspace-worlds'
import { runTool } from '../helpers/assistant'
import { signedInBrowser } from '../helpers/auth'
import { callLoader } from '../helpers/route'
import { inProcessRpcClient, type RpcClient } from '../helpers/rpc'
import type { UserRow } from '../helpers/task-service'

/**
 * Who sees which task across workspaces (docs/product-rules.md §1), asked the way clients ask, for
 * the generated worlds of app/services/tasks/workspace-worlds.ts: the RPC endpoint's reads and the
 * dashboard's numbers, the task list page in each of the person's workspaces and the task modal
 * (`?task=`), the MCP tools and the assistant's tools. Each answers exactly what the model of
 * `TASK_RULES.see` gives; the page and list_tasks show the workspace the person works in, so
 * together their workspaces show all of it.
 */

const db = database()
let people: UserRow[] = []
const sessions: {
  cookie: string
  session: { id: string; userId: string }
  user: SessionUser
  mcp: Client
}[] = []
let visitorRpc: RpcClient
/** Every world's tasks so far: personal workspaces and shares gather them from world to world. */
const everTasks: ModelTask[] = []

beforeAll(async () => {
  people = await createPeople(db)
  for (const row of people) {
    const { cookie, session } = await signedInBrowser(db, row.id)
    const user = toSessionUser(row)
    sessions.push({ cookie, session: { id: session.id, userId: row.id }, user, mcp: await mcpClientOf(user) })
  }
  visitorRpc = inProcessRpcClient()
})
afterAll(() => Promise.all(sessions.map(({ mcp }) => mcp.close())))

const idsOf = (tasks: { id: string }[], among: Set<string>) =>
  tasks
    .map((task) => task.id)
    .filter((id) => among.has(id))
    .sort()

/**
 * An MCP client of the person's, as an agent holding their read token is: the official client and
 * transport, each request answered by /mcp's handler in this process.
 */
async function mcpClientOf(user: SessionUser) {
  const client = new Client({ name: 'threadwork-property', version: '1.0.0' })
  const caller = { user, scope: 'read' as const, timeZone: null }
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => handleMcp(new Request(url, init), caller),
    }),
  )
  return client
}

/** A tool's answer: what it returned, or the refusal it read out. */
async function callTool(client: Client, name: ToolName, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (result.isError)
    throw new Error(result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
  return result.structuredContent
}

const sees = (call: Promise<unknown>) =>
  call.then(
    () => true,
    () => false,
  )

/** What the dashboard's numbers count of `tasks`: in all and by status. */
function countsOf(tasks: ModelTask[]) {
  return {
    total: tasks.length,
    byStatus: Object.fromEntries(
      STATUSES.map((status) => [status, tasks.filter((task) => task.status === status).length]),
    ),
  }
}

describe('who sees which task, asked as clients ask', () => {
  test.prop([world], { numRuns: 25 })(
    'the RPC endpoint, the pages, the MCP tools and the assistant answer exactly the model',
    async (generated) => {
      const built = await buildWorld(db, people, generated)
      const { tag, tasks, ids, teams } = built
      everTasks.push(...tasks)
      for (const { viewer, who, actor } of viewersOf(people)) {
        const wanted = modelVisible(tasks, viewer)
        const signedIn = viewer === null ? undefined : sessions[viewer]
        const rpc = signedIn ? inProcessRpcClient({ headers: { cookie: signedIn.cookie } }) : visitorRpc
        const cookie = signedIn ? { Cookie: signedIn.cookie } : undefined
        const got: string[] = []
        const opened: string[] = []
        for (const id of ids) {
          if (await sees(rpc.task.get({ taskId: id }))) got.push(id)
          const { data } = await callLoader(rootLoader, { url: `/task?task=${id}`, headers: cookie })
          const modal = data.taskModal
          if (modal && 'task' in modal && modal.task.id === id) opened.push(id)
          else
            expect(modal, `${who}: the modal of a task they may not see`).toEqual({
              error: TASK_NOT_FOUND,
              taskId: id,
            })
        }
        expect(got.sort(), `${who}: task.get`).toEqual(wanted)
        expect(opened.sort(), `${who}: /task?task=`).toEqual(wanted)
        if (viewer === null || !signedIn || actor === null) continue

        expect(idsOf(await rpc.task.getAll(), ids), `${who}: task.getAll`).toEqual(wanted)
        const found = await rpc.task.search({ query: tag, limit: SEARCH_LIMITS.results.max })
        expect(idsOf(found.tasks, ids), `${who}: task.search`).toEqual(wanted)
        const mcpFound = (await callTool(signedIn.mcp, 'search', {
          query: tag,
          limit: SEARCH_LIMITS.results.max,
        })) as typeof found
        expect(idsOf(mcpFound.tasks, ids), `${who}: MCP search`).toEqual(wanted)
        const mcpGot: string[] = []
        for (const id of ids) {
          if (await sees(callTool(signedIn.mcp, 'get_task', { taskId: id }))) mcpGot.push(id)
        }
        expect(mcpGot.sort(), `${who}: MCP get_task`).toEqual(wanted)

        // The list page, list_tasks and the dashboard's numbers, in each workspace of this world.
        const shared = everTasks.filter(
          (task) => !task.members.has(viewer) && isModelSharedWith(task, viewer),
        )
        const onPages = new Set<string>()
        for (const workspaceId of [actor.id, ...teams.map((team) => team.id)]) {
          const isMember =
            workspaceId === actor.id ||
            teams.some((team) => team.id === workspaceId && team.members.has(viewer))
          const stats = rpc.task.getTaskStats({ workspaceId })
          const listTasks = callTool(signedIn.mcp, 'list_tasks', { workspaceId })
          if (!isMember) {
            await expect(stats, `${who}: the numbers of a workspace they are not in`).rejects.toMatchObject({
              code: 'NOT_FOUND',
            })
            await expect(listTasks, `${who}: list_tasks in a workspace they are not in`).rejects.toThrow(
              'Workspace not found',
            )
            continue
          }
          const inWorkspace = everTasks.filter((task) => task.workspaceId === workspaceId)
          expect(await stats, `${who}: task.getTaskStats`).toMatchObject({
            own: countsOf(inWorkspace),
            shared: countsOf(shared),
          })
          await setActiveWorkspace(db, signedIn.session, workspaceId)
          const { data } = await callLoader(taskListLoader, { url: '/task', headers: cookie })
          const groups = [...data.groups.mine.tasks, ...data.groups.shared, ...data.groups.public]
          const shown = modelVisible(
            tasks,
            viewer,
            (task) => task.workspaceId === workspaceId || !task.members.has(viewer),
          )
          expect(idsOf(groups, ids), `${who}: /task working in a workspace`).toEqual(shown)
          const listed = (await listTasks) as typeof data.groups
          expect(
            idsOf([...listed.mine.tasks, ...listed.shared, ...listed.public], ids),
            `${who}: MCP list_tasks`,
          ).toEqual(shown)
          for (const id of shown) onPages.add(id)
        }
        expect([...onPages].sort(), `${who}: /task over their workspaces`).toEqual(wanted)

        // The assistant's tools: the person's own tasks, by the same reads.
        const assistant = chatTools(db, signedIn.user)
        const own = (task: ModelTask) => task.creator === viewer
        const mine = (await runTool(assistant.listMyTasks, {})) as { total: number; tasks: { id: string }[] }
        expect(idsOf(mine.tasks, ids), `${who}: the assistant's listMyTasks`).toEqual(
          modelVisible(tasks, viewer, own),
        )
        expect(mine.total, `${who}: the assistant's count of their tasks`).toBe(
          modelVisible(everTasks, viewer, own).length,
        )
        const searched = (await runTool(assistant.searchMyTasks, { query: tag })) as {
          tasks: { id: string }[]
        }
        expect(idsOf(searched.tasks, ids), `${who}: the assistant's searchMyTasks`).toEqual(
          modelVisible(tasks, viewer, own),
        )
        const personal = everTasks.filter((task) => task.workspaceId === actor.id)
        expect(await runTool(assistant.getMyStats, {}), `${who}: the assistant's getMyStats`).toMatchObject(
          countsOf(personal),
        )
      }
    },
    120_000,
  )
})
