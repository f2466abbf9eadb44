import { asc, count, eq, gt, max } from 'drizzle-orm'
import { expect } from 'vitest'
import { database } from '~/db/client.server'
import { events, taskShares, tasks } from '~/db/schema'
import { Forbidden, Invalid, NotFound } from '~/services/errors'
import type { Actor } from '~/services/session-user'
import { NOT_ALLOWED, TASK_NOT_FOUND } from '~/services/tasks/rule.server'
import { TaskFieldsSchema, type TaskInput } from '~/services/tasks/task-schemas'
import type { createUser } from './factories'
import { failure } from './failure'

/**
 * What the task service's tests share (app/services/tasks/*.test.ts): the viewer a route or procedure builds,
 * the parse it runs, and a look at every row a change could touch, to prove a refusal wrote
 * nothing. Each test file gets its own database (tests/setup/database.ts), so these read that one.
 */

const db = database()

export type UserRow = Awaited<ReturnType<typeof createUser>>

/** The viewer a route or procedure would build from this user's session. */
export function viewerOf(user: UserRow): Actor {
  return { id: user.id, email: user.email, emailVerified: user.emailVerifiedAt !== null }
}

/** What `fields` become after the schema's parse, as every caller calls the service. */
export function fields(input: TaskInput) {
  return TaskFieldsSchema.parse(input)
}

export async function taskRow(id: string) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id))
  return row
}

export async function sharesOf(taskId: string) {
  const rows = await db
    .select({ email: taskShares.email })
    .from(taskShares)
    .where(eq(taskShares.taskId, taskId))
    .orderBy(asc(taskShares.email))
  return rows.map((row) => row.email)
}

export async function lastEventId() {
  const [row] = await db.select({ id: max(events.id) }).from(events)
  return row?.id ?? 0
}

export async function eventsAfter(id: number) {
  return db.select().from(events).where(gt(events.id, id)).orderBy(asc(events.id))
}

/** Everything a change to this task could touch: its row, its shares, every task, the event log. */
export async function worldAround(taskId: string) {
  const [taskCount] = await db.select({ n: count() }).from(tasks)
  return {
    task: await taskRow(taskId),
    shares: await sharesOf(taskId),
    tasks: taskCount?.n,
    lastEvent: await lastEventId(),
  }
}

/** Expects `change` to be refused with `error`, leaving every row and the event log as they were. */
export async function expectRefused(taskId: string, change: () => Promise<unknown>, error: Error) {
  const before = await worldAround(taskId)
  const thrown = await failure(change())
  expect(thrown).toBeInstanceOf(error.constructor)
  expect(thrown.message).toBe(error.message)
  expect(await worldAround(taskId)).toEqual(before)
  return thrown
}

export const notFound = new NotFound(TASK_NOT_FOUND)
export const forbidden = new Forbidden(NOT_ALLOWED)
export const notYourParent = new Invalid('The parent must be one of your tasks.')
