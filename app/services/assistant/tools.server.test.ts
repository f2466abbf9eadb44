import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { toSessionUser } from '~/services/sessions.server'
import { createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { chatTools } from './tools.server'

/**
 * The tools a model may call act for the session's person only: nothing a model writes can reach
 * another person's tasks, and every tool that changes data asks for approval first.
 */

const db = () => database()
const run = <T>(execute: ((input: T, options: never) => unknown) | undefined, input: T) =>
  (execute as (input: T, options: unknown) => Promise<unknown>)(input, { toolCallId: 't', messages: [] })

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
    expect(await run(tools.listMyTasks.execute, {})).toMatchObject({
      total: 1,
      tasks: [{ title: 'My own invoice' }],
    })
    expect(await run(tools.searchMyTasks.execute, { query: 'invoice' })).toMatchObject({
      total: 1,
      tasks: [{ title: 'My own invoice' }],
    })
    expect(await run(tools.getMyStats.execute, {})).toMatchObject({ total: 1 })
  })

  test("changing the status of someone else's private task answers 'Task not found' and changes nothing", async () => {
    const { me, theirs } = await twoPeople()
    const answer = await run(chatTools(db(), me).setTaskStatus.execute, {
      taskId: theirs.id,
      status: 'Completed',
    })
    expect(answer).toEqual({ error: 'Task not found' })
    const [row] = await db().select().from(tasks).where(eq(tasks.id, theirs.id))
    expect(row?.status).toBe('Not Started')
  })

  test("a public task of someone else may be seen, not changed: 'Unauthorized to view this task'", async () => {
    const { me, theirPublic } = await twoPeople()
    const answer = await run(chatTools(db(), me).setTaskStatus.execute, {
      taskId: theirPublic.id,
      status: 'Completed',
    })
    expect(answer).toEqual({ error: 'Unauthorized to view this task' })
  })

  test('a created task belongs to the session’s person', async () => {
    const { me } = await twoPeople()
    const created = (await run(chatTools(db(), me).createTask.execute, { title: 'From the chat' })) as {
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
  expect(needing.sort()).toEqual(['createTask', 'setTaskStatus'])
})
