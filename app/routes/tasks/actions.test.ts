import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { CANNOT_BE_ASSIGNED } from '~/services/tasks/assignment.server'
import { NOT_ALLOWED, TASK_NOT_FOUND } from '~/services/tasks/rule.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { callAction } from '../../../tests/helpers/route'
import { action } from './actions'

/**
 * /task/actions refusing a change: the status the domain gave it, the message, and the page to
 * go back to (what the refusal page shows without JavaScript). The changes themselves are
 * followed in tests/e2e/tasks.e2e.ts and the services' tests.
 */

const db = database()

async function world() {
  const owner = await createUser(db)
  const grace = await createUser(db)
  const task = await createTask(db, { userId: owner.id, text: 'Plan the offsite' })
  const as = async (user: { id: string }) => {
    const browser = await signedInBrowser(db, user.id)
    return (fields: Record<string, string>) =>
      callAction(action, {
        url: '/task/actions',
        headers: { Cookie: browser.cookie },
        form: browser.form({ redirectTo: `/task?task=${task.id}`, ...fields }),
      })
  }
  return { owner, grace, task, as }
}

describe('/task/actions refusals', () => {
  test('a form that does not parse: 400 with its first problem and the way back', async () => {
    const { owner, task, as } = await world()
    const answer = await (await as(owner))({ intent: 'set-status', taskId: task.id, status: 'Done-ish' })
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ back: `/task?task=${task.id}` })
    expect(answer.data.error).toEqual(expect.any(String))
  })

  test("someone else's task: 404 with the domain's message, and the task stays", async () => {
    const { grace, task, as } = await world()
    const answer = await (await as(grace))({ intent: 'delete', taskId: task.id })
    expect(answer).toMatchObject({
      status: 404,
      data: { error: TASK_NOT_FOUND, back: `/task?task=${task.id}` },
    })
    expect(await db.select().from(tasks).where(eq(tasks.id, task.id))).toHaveLength(1)
  })

  test('a task shared with you: 403 for what only its owner may do', async () => {
    const { grace, task, as } = await world()
    await shareTask(db, task.id, [grace.email])
    const answer = await (await as(grace))({ intent: 'set-public', taskId: task.id, isPublic: 'true' })
    expect(answer).toMatchObject({ status: 403, data: { error: NOT_ALLOWED } })
  })
})

describe('/task/actions assignments', () => {
  test('a forged post assigning a stranger: 400 with the reason, and the task stays unassigned', async () => {
    const { owner, grace, task, as } = await world()
    const answer = await (await as(owner))({ intent: 'update', taskId: task.id, assigneeId: grace.id })
    expect(answer).toMatchObject({ status: 400, data: { error: CANNOT_BE_ASSIGNED } })
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]?.assigneeId).toBeNull()
  })

  test('a stranger of a public task cannot assign themself by a forged post', async () => {
    const { grace, task, as } = await world()
    await db.update(tasks).set({ isPublic: true }).where(eq(tasks.id, task.id))
    const answer = await (await as(grace))({ intent: 'update', taskId: task.id, assigneeId: grace.id })
    expect(answer.status).toBe(403)
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]?.assigneeId).toBeNull()
  })

  test('the owner assigns a sharee, who hands it back with the hand-back intent', async () => {
    const { owner, grace, task, as } = await world()
    await shareTask(db, task.id, [grace.email])
    const assigned = await (await as(owner))({ intent: 'update', taskId: task.id, assigneeId: grace.id })
    expect(assigned.status).toBe(302)
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]?.assigneeId).toBe(grace.id)
    const handedBack = await (await as(grace))({ intent: 'hand-back', taskId: task.id })
    expect(handedBack.status).toBe(302)
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]?.assigneeId).toBeNull()
  })
})
