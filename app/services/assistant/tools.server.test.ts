import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { SearchInputSchema } from '~/services/search-query'
import { toSessionUser } from '~/services/sessions.server'
import { TaskFieldsSchema, TaskIdSchema, TaskUpdateSchema } from '~/services/tasks/task-schemas'
import { todayIn } from '~/utils/calendar'
import type { z } from '~/utils/zod'
import { runTool } from '../../../tests/helpers/assistant'
import {
  createTask,
  createTeamWorkspace,
  createUser,
  removeMember,
  shareTask,
} from '../../../tests/helpers/factories'
import {
  ASSISTANT_TASK_FIELDS,
  chatTools,
  WITHHELD_FROM_ASSISTANT,
  WITHHELD_FROM_ASSISTANT_INPUT,
} from './tools.server'

/**
 * The tools a model may call act for the session's person only: nothing a model writes can reach
 * another person's tasks, and every tool that changes data asks for approval first.
 */

const db = () => database()

async function twoPeople() {
  const me = await createUser(db())
  const other = await createUser(db())
  const mine = await createTask(db(), { userId: me.id, text: 'My own invoice' })
  const theirs = await createTask(db(), { userId: other.id, text: 'Their private invoice' })
  const theirPublic = await createTask(db(), {
    userId: other.id,
    text: 'Their public invoice',
    isPublic: true,
  })
  return { me: toSessionUser(me), other: toSessionUser(other), mine, theirs, theirPublic }
}

describe('the tools reach only the person’s own tasks', () => {
  test('listing and searching never return another person’s task, public or shared', async () => {
    const { me, theirPublic } = await twoPeople()
    await shareTask(db(), theirPublic.id, [me.email])
    const tools = chatTools(db(), me)
    expect(await runTool(tools.listMyTasks, {})).toMatchObject({
      total: 1,
      tasks: [{ text: 'My own invoice' }],
    })
    expect(await runTool(tools.searchMyTasks, { query: 'invoice' })).toMatchObject({
      total: 1,
      tasks: [{ text: 'My own invoice' }],
    })
    expect(await runTool(tools.getMyStats, {})).toMatchObject({ total: 1 })
  })

  test('a task the person created in a workspace they left is found as it is listed, while they may see it', async () => {
    const { me, other } = await twoPeople()
    const team = await createTeamWorkspace(db(), {
      ownerId: other.id,
      members: [{ userId: me.id, role: 'member' }],
    })
    const left = await createTask(db(), {
      userId: me.id,
      workspaceId: team.id,
      text: 'Left behind ledger',
      isPublic: true,
    })
    const hidden = await createTask(db(), { userId: me.id, workspaceId: team.id, text: 'Hidden ledger' })
    await removeMember(db(), team.id, me.id)
    const tools = chatTools(db(), me)
    const listed = (await runTool(tools.listMyTasks, {})) as { tasks: { id: string }[] }
    const found = (await runTool(tools.searchMyTasks, { query: 'ledger' })) as { tasks: { id: string }[] }
    expect(listed.tasks.map((task) => task.id)).toContain(left.id)
    expect(found.tasks.map((task) => task.id)).toEqual([left.id])
    expect(listed.tasks.map((task) => task.id)).not.toContain(hidden.id)
  })

  test('searching is the search the pages use: any searched field, words by their start, best match first', async () => {
    const { me, mine } = await twoPeople()
    const inDetails = await createTask(db(), {
      userId: me.id,
      text: 'Call the bank',
      details: 'About the invoices',
    })
    const tools = chatTools(db(), me)
    const found = (await runTool(tools.searchMyTasks, { query: 'invoic' })) as { tasks: { id: string }[] }
    expect(found.tasks.map((task) => task.id)).toEqual([mine.id, inDetails.id])
  })

  test("changing the status of someone else's private task answers 'Task not found' and changes nothing", async () => {
    const { me, theirs } = await twoPeople()
    const answer = await runTool(chatTools(db(), me).setTaskStatus, {
      taskId: theirs.id,
      status: 'Completed',
    })
    expect(answer).toEqual({ error: 'Task not found' })
    const [row] = await db().select().from(tasks).where(eq(tasks.id, theirs.id))
    expect(row?.status).toBe('Not Started')
  })

  test("a public task of someone else may be seen, not changed: 'Unauthorized to view this task'", async () => {
    const { me, theirPublic } = await twoPeople()
    const answer = await runTool(chatTools(db(), me).setTaskStatus, {
      taskId: theirPublic.id,
      status: 'Completed',
    })
    expect(answer).toEqual({ error: 'Unauthorized to view this task' })
  })

  test('a created task belongs to the session’s person', async () => {
    const { me } = await twoPeople()
    const created = (await runTool(chatTools(db(), me).createTask, { text: 'From the chat' })) as {
      id: string
    }
    const [row] = await db().select().from(tasks).where(eq(tasks.id, created.id))
    expect(row).toMatchObject({ userId: me.id, text: 'From the chat', isPublic: false })
  })
})

test('every tool that changes data needs approval; reading tools do not', async () => {
  const { me } = await twoPeople()
  const tools = chatTools(db(), me)
  const needing = Object.entries(tools)
    .filter(([, tool]) => 'needsApproval' in tool && tool.needsApproval === true)
    .map(([name]) => name)
  expect(needing.sort()).toEqual(['createTask', 'setTaskStatus', 'updateTask'])
})

describe('the tools that write take the fields the task schema takes', () => {
  /** The fields of a zod object schema (a tool's input schema is typed as any schema the SDK takes). */
  const keysOf = (schema: unknown) => Object.keys((schema as { shape: object }).shape).sort()

  test('creating takes every field of a new task but whom it is shared with; changing, every field of an update but that', async () => {
    const { me } = await twoPeople()
    const tools = chatTools(db(), me)
    const withoutSharing = (keys: string[]) => keys.filter((key) => key !== 'sharedWith')
    expect(keysOf(tools.createTask.inputSchema)).toEqual(withoutSharing(keysOf(TaskFieldsSchema)))
    expect(keysOf(tools.updateTask.inputSchema)).toEqual(
      withoutSharing(['taskId', ...keysOf(TaskUpdateSchema)]).sort(),
    )
    // The schema's limits hold for the model as for a form: a title too long is refused.
    await expect(runTool(tools.createTask, { text: 'x'.repeat(201) })).rejects.toThrow(/at most 200/)
  })

  test('every tool takes its service’s schema but what it withholds, each with its reason', async () => {
    const { me } = await twoPeople()
    const tools = chatTools(db(), me)
    /** Where each tool's input comes from; null: its service takes no schema (the tool's own filters, or nothing). */
    const sources: Record<keyof typeof tools, { schemas: z.ZodObject[]; adds?: string[] } | null> = {
      listMyTasks: null,
      getMyStats: null,
      searchDocs: null,
      searchMyTasks: { schemas: [SearchInputSchema] },
      createTask: { schemas: [TaskFieldsSchema] },
      updateTask: { schemas: [TaskIdSchema, TaskUpdateSchema] },
      setTaskStatus: { schemas: [TaskIdSchema], adds: ['status'] },
    }
    const withheld: Partial<Record<string, Record<string, string>>> = WITHHELD_FROM_ASSISTANT_INPUT
    for (const [name, source] of Object.entries(sources)) {
      if (!source) continue
      const offered = [...source.schemas.flatMap((schema) => keysOf(schema)), ...(source.adds ?? [])]
      const reasons = withheld[name] ?? {}
      for (const [field, reason] of Object.entries(reasons)) {
        expect(offered, `${name} withholds ${field}, a field of its schema`).toContain(field)
        expect(reason, `${name}: why ${field} is withheld`).toBeTruthy()
      }
      const expected = [...new Set(offered)].filter((field) => !Object.hasOwn(reasons, field)).sort()
      expect(keysOf(tools[name as keyof typeof tools].inputSchema), name).toEqual(expected)
    }
  })

  test('a created task gets every field the model gave it', async () => {
    const { me } = await twoPeople()
    const fields = {
      text: 'Plan the offsite',
      details: 'Two days, one venue',
      refLink: 'https://example.com/offsite',
      priority: 'high',
      status: 'In Progress',
      hrs: 5,
      isPublic: true,
    }
    const created = (await runTool(chatTools(db(), me).createTask, fields)) as { id: string }
    const [row] = await db().select().from(tasks).where(eq(tasks.id, created.id))
    expect(row).toMatchObject({ userId: me.id, ...fields })
  })

  test('changing a task changes only the fields given, of the person’s own tasks only', async () => {
    const { me, mine, theirPublic } = await twoPeople()
    const tools = chatTools(db(), me)
    const changed = await runTool(tools.updateTask, { taskId: mine.id, details: 'Paid on the 3rd', hrs: 2 })
    expect(changed).toMatchObject({ id: mine.id, text: 'My own invoice', details: 'Paid on the 3rd', hrs: 2 })
    const [row] = await db().select().from(tasks).where(eq(tasks.id, mine.id))
    expect(row).toMatchObject({ text: 'My own invoice', details: 'Paid on the 3rd', hrs: 2 })

    await shareTask(db(), theirPublic.id, [me.email])
    expect(await runTool(tools.updateTask, { taskId: theirPublic.id, text: 'Taken over' })).toEqual({
      error: 'Unauthorized to view this task',
    })
    const [theirs] = await db().select().from(tasks).where(eq(tasks.id, theirPublic.id))
    expect(theirs?.text).toBe('Their public invoice')
  })
})

test('a task the tools return tells nothing of other people: the withheld fields are about them', async () => {
  const { me, other, theirPublic } = await twoPeople()
  await shareTask(db(), theirPublic.id, [me.email, 'someone@example.com'])
  const moved = (await runTool(chatTools(db(), me).setTaskStatus, {
    taskId: theirPublic.id,
    status: 'In Progress',
  })) as Record<string, unknown>
  expect(Object.keys(moved).sort()).toEqual([...ASSISTANT_TASK_FIELDS, 'assignedToYou', 'link'].sort())
  expect(Object.keys(WITHHELD_FROM_ASSISTANT).sort()).toEqual(
    [
      'ownerName',
      'sharedWith',
      'sharedWithNames',
      'userId',
      'workspaceId',
      'assigneeId',
      'assigneeName',
      'assigneeImage',
    ].sort(),
  )
  const said = JSON.stringify(moved)
  for (const word of [other.id, other.name, 'someone@example.com', me.email]) {
    expect(said).not.toContain(word)
  }
})

describe('due dates and assignments, in the person’s own time zone', () => {
  // Kiritimati (UTC+14) and Pago Pago (UTC−11) are always on different days.
  const ahead = 'Pacific/Kiritimati'
  const behind = 'Pacific/Pago_Pago'

  test('“overdue” and “due today” are by the person’s today; Completed tasks are never due', async () => {
    const me = await createUser(db())
    await createTask(db(), { userId: me.id, text: 'Due on the later day', dueDate: todayIn(ahead) })
    await createTask(db(), { userId: me.id, text: 'Due on the earlier day', dueDate: todayIn(behind) })
    await createTask(db(), {
      userId: me.id,
      text: 'Done early',
      dueDate: todayIn(behind),
      status: 'Completed',
    })
    await createTask(db(), { userId: me.id, text: 'Undated' })
    const titles = async (zone: string, due: 'overdue' | 'today') =>
      (
        (await runTool(chatTools(db(), toSessionUser(me), zone).listMyTasks, { due })) as {
          tasks: { text: string }[]
        }
      ).tasks
        .map((task) => task.text)
        .sort()
    expect(await titles(ahead, 'today')).toEqual(['Due on the later day'])
    expect(await titles(ahead, 'overdue')).toEqual(['Due on the earlier day'])
    expect(await titles(behind, 'today')).toEqual(['Due on the earlier day'])
    expect(await titles(behind, 'overdue')).toEqual([])
  })

  test('“assigned to me” lists the tasks assigned to the person, shared with them or their own', async () => {
    const me = await createUser(db())
    const other = await createUser(db())
    const theirs = await createTask(db(), { userId: other.id, text: 'Theirs, on me', assigneeId: me.id })
    await shareTask(db(), theirs.id, [me.email])
    await createTask(db(), { userId: me.id, text: 'Mine, on me', assigneeId: me.id })
    await createTask(db(), { userId: me.id, text: 'Mine, on nobody' })
    const listed = (await runTool(chatTools(db(), toSessionUser(me)).listMyTasks, {
      assignedToMe: true,
    })) as {
      tasks: { text: string; assignedToYou: boolean }[]
    }
    expect(listed.tasks.map((task) => [task.text, task.assignedToYou]).sort()).toEqual([
      ['Mine, on me', true],
      ['Theirs, on me', true],
    ])
  })
})
