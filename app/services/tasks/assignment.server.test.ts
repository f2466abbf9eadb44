import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, events, jobs, notifications, taskShares, tasks, users } from '~/db/schema'
import { env } from '~/env.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { Forbidden, Invalid, NotFound } from '~/services/errors'
import { MENTION_EMAIL_JOB, runMentionEmailJob } from '~/services/mention-emails.server'
import { countUnreadMentions, listInboxMentions, listUnreadMentions } from '~/services/notifications.server'
import { TaskUpdateSchema } from '~/services/tasks/task-schemas'
import {
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../../tests/helpers/factories'
import { fields, taskRow, type UserRow, viewerOf } from '../../../tests/helpers/task-service'
import { assigneeMayBeSql, CANNOT_BE_ASSIGNED } from './assignment.server'
import { listAssignable } from './reads.server'
import { createTask, shareTask, updateTask } from './writes.server'

/**
 * Who may assign whom (docs/product-rules.md §1), over owner / verified sharee / unverified sharee
 * / stranger, on a private shared task and on a public one; handing back; unsharing clears the
 * assignment in the same commit; and being assigned notifies like a mention.
 */

const db = database()

const PEOPLE = ['owner', 'verified', 'unverified', 'stranger'] as const
type Person = (typeof PEOPLE)[number]
const people = {} as Record<Person, UserRow>

beforeAll(async () => {
  people.owner = await createUser(db, { name: 'Olive Owner' })
  people.verified = await createUser(db, { name: 'Vera Verified' })
  people.unverified = await createUser(db, { name: 'Una Unverified', emailVerifiedAt: null })
  people.stranger = await createUser(db, { name: 'Sam Stranger' })
})

/** A task of Olive's shared with Vera and Una, public or not. */
async function sharedTask(isPublic = false) {
  const task = await insertTask(db, { userId: people.owner.id, text: 'Plan the offsite', isPublic })
  await insertShares(db, task.id, [people.verified.email, people.unverified.email])
  return task.id
}

/** What the schema's parse makes of an update, as every entry point calls the service. */
const update = (input: Record<string, unknown>) => TaskUpdateSchema.parse(input)

async function outcome(run: () => Promise<unknown>) {
  try {
    await run()
    return 'ok'
  } catch (error) {
    if (error instanceof Invalid) return `invalid: ${error.message}`
    if (error instanceof Forbidden) return 'forbidden'
    if (error instanceof NotFound) return 'not found'
    throw error
  }
}

/** by → whom: what the owner may assign, on a private task and a public one; nobody else assigns. */
const ASSIGN = `
  by          whom        private    public
  owner       owner       ok         ok
  owner       verified    ok         ok
  owner       unverified  invalid    invalid
  owner       stranger    invalid    invalid
  verified    owner       forbidden  forbidden
  verified    verified    forbidden  forbidden
  unverified  verified    not-found  forbidden
  stranger    verified    not-found  forbidden
`

describe('who may assign whom', () => {
  const rows = ASSIGN.trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/) as [Person, Person, string, string])

  test.each(rows)('%s assigns %s: private %s, public %s', async (by, whom, onPrivate, onPublic) => {
    for (const [isPublic, wanted] of [
      [false, onPrivate],
      [true, onPublic],
    ] as const) {
      const taskId = await sharedTask(isPublic)
      const result = await outcome(() =>
        updateTask(db, viewerOf(people[by]), taskId, update({ assigneeId: people[whom].id })),
      )
      const expected = wanted === 'invalid' ? `invalid: ${CANNOT_BE_ASSIGNED}` : wanted.replace('-', ' ')
      expect(result, `${isPublic ? 'public' : 'private'}`).toBe(expected)
      expect((await taskRow(taskId))?.assigneeId).toBe(wanted === 'ok' ? people[whom].id : null)
    }
  })

  test('a made-up id is refused as a stranger is', async () => {
    const taskId = await sharedTask()
    expect(
      await outcome(() => updateTask(db, viewerOf(people.owner), taskId, update({ assigneeId: 'nobody' }))),
    ).toBe(`invalid: ${CANNOT_BE_ASSIGNED}`)
  })

  test('create: the owner themself, a verified person among the new shares, or nobody', async () => {
    const owner = viewerOf(people.owner)
    const made = await createTask(db, owner, fields({ text: 'Mine', assigneeId: people.owner.id }))
    expect(made.assigneeId).toBe(people.owner.id)
    const shared = await createTask(
      db,
      owner,
      fields({ text: 'Theirs', sharedWith: [people.verified.email], assigneeId: people.verified.id }),
    )
    expect(shared).toMatchObject({ assigneeId: people.verified.id, assigneeName: 'Vera Verified' })
    for (const whom of ['unverified', 'stranger'] as const) {
      const before = await db.$count(tasks)
      const result = await outcome(() =>
        createTask(
          db,
          owner,
          fields({ text: 'Refused', sharedWith: [people.unverified.email], assigneeId: people[whom].id }),
        ),
      )
      expect(result).toBe(`invalid: ${CANNOT_BE_ASSIGNED}`)
      expect(await db.$count(tasks)).toBe(before)
    }
  })

  test('the owner clears it with null or an empty value', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id }))
    expect((await updateTask(db, owner, taskId, update({ assigneeId: '' }))).assigneeId).toBeNull()
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id }))
    expect((await updateTask(db, owner, taskId, update({ assigneeId: null }))).assigneeId).toBeNull()
  })
})

describe("the edit view's list", () => {
  test('exactly who may be assigned: the owner first, then verified sharees by name, whatever the case of their address', async () => {
    const mixed = await createUser(db, { name: 'Ann Mixed', email: `Ann.Mixed-${Date.now()}@Example.test` })
    const taskId = await sharedTask(true)
    await insertShares(db, taskId, [mixed.email.toLowerCase()])
    const list = await listAssignable(db, {
      id: taskId,
      userId: people.owner.id,
      workspaceId: people.owner.id,
    })
    expect(list.map((person) => person.name)).toEqual(['Olive Owner', 'Ann Mixed', 'Vera Verified'])
    const assigned = await updateTask(db, viewerOf(people.owner), taskId, update({ assigneeId: mixed.id }))
    expect(assigned.assigneeName).toBe('Ann Mixed')
  })
})

describe('handing back', () => {
  test('the assignee hands it back, the one change they may make; an event says so', async () => {
    const taskId = await sharedTask()
    const vera = viewerOf(people.verified)
    await updateTask(db, viewerOf(people.owner), taskId, update({ assigneeId: people.verified.id }))
    expect(
      await outcome(() => updateTask(db, vera, taskId, update({ assigneeId: null, text: 'Renamed' }))),
    ).toBe('forbidden')
    expect(await outcome(() => updateTask(db, vera, taskId, update({ assigneeId: people.owner.id })))).toBe(
      'forbidden',
    )
    const handed = await updateTask(db, vera, taskId, update({ assigneeId: null }))
    expect(handed.assigneeId).toBeNull()
    expect(handed.text).toBe('Plan the offsite')
    const [event] = await db
      .select()
      .from(events)
      .where(
        and(
          eq(events.taskId, taskId),
          eq(events.type, 'task-updated'),
          eq(events.payload, { taskId, userId: vera.id } as never),
        ),
      )
    expect(event).toBeDefined()
  })

  test('nobody else hands it back: not a sharee it is not assigned to, not a stranger', async () => {
    const taskId = await sharedTask(true)
    await updateTask(db, viewerOf(people.owner), taskId, update({ assigneeId: people.owner.id }))
    for (const who of ['verified', 'stranger'] as const) {
      expect(
        await outcome(() => updateTask(db, viewerOf(people[who]), taskId, update({ assigneeId: null }))),
      ).toBe('forbidden')
    }
    expect((await taskRow(taskId))?.assigneeId).toBe(people.owner.id)
  })
})

describe('unsharing clears the assignment in the same commit', () => {
  test('shareTask without the assignee clears it; keeping them keeps it', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id }))
    await shareTask(db, owner, taskId, [people.verified.email])
    expect((await taskRow(taskId))?.assigneeId).toBe(people.verified.id)
    const updatedAt = (await taskRow(taskId))?.updatedAt
    await shareTask(db, owner, taskId, [people.unverified.email])
    const row = await taskRow(taskId)
    expect(row?.assigneeId).toBeNull()
    expect(row?.updatedAt.getTime()).toBeGreaterThanOrEqual(updatedAt?.getTime() ?? 0)
  })

  test('the owner stays assigned when every share goes', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    await updateTask(db, owner, taskId, update({ assigneeId: people.owner.id }))
    await updateTask(db, owner, taskId, update({ sharedWith: '' }))
    expect((await taskRow(taskId))?.assigneeId).toBe(people.owner.id)
  })

  test('assigning someone while unsharing them in the same update is refused, and nothing is written', async () => {
    const taskId = await sharedTask()
    const result = await outcome(() =>
      updateTask(
        db,
        viewerOf(people.owner),
        taskId,
        update({ sharedWith: '', assigneeId: people.verified.id }),
      ),
    )
    expect(result).toBe(`invalid: ${CANNOT_BE_ASSIGNED}`)
    expect(await taskRow(taskId)).toMatchObject({ assigneeId: null })
  })

  test('a share removed after the check cannot let the assignment through (the guard is in the statement)', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    // Checked against the shares read before; the statement reads them as the commit runs.
    const before = await db.select().from(tasks).where(eq(tasks.id, taskId))
    expect(before[0]?.assigneeId).toBeNull()
    await shareTask(db, owner, taskId, [])
    const written = await db
      .update(tasks)
      .set({ assigneeId: people.verified.id })
      .where(and(eq(tasks.id, taskId), assigneeMayBeSql(people.verified.id, taskId)))
      .returning({ id: tasks.id })
    expect(written).toEqual([])
  })

  test('a write that sets the shares and assigns guards the shares too: an assignee gone before the commit changes neither', async () => {
    const taskId = await sharedTask()
    const leaving = await createUser(db, { name: 'Lee Leaving' })
    const audience = {
      ownerId: people.owner.id,
      workspaceId: people.owner.id,
      isPublic: false,
      sharedWith: [leaving.email.toLowerCase()],
      members: [people.owner.id],
      admins: [people.owner.id],
    }
    const guard = assigneeMayBeSql(leaving.id, taskId, audience)
    const [holds] = await db.select({ holds: guard }).from(sql`(SELECT 1)`)
    expect(Number(holds?.holds)).toBe(1)
    // The account goes after the check, before the commit: every statement the guard carries is refused.
    await db.delete(users).where(eq(users.id, leaving.id))
    const unshared = await db
      .delete(taskShares)
      .where(and(eq(taskShares.taskId, taskId), guard))
      .returning({ email: taskShares.email })
    expect(unshared).toEqual([])
    expect(await db.select().from(taskShares).where(eq(taskShares.taskId, taskId))).not.toEqual([])
  })
})

describe('being assigned notifies like a mention', () => {
  const MINUTE = 60_000
  const T0 = Date.parse('2030-03-01T09:00:00Z')

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
  })
  afterEach(async () => {
    vi.useRealTimers()
    await db.delete(emailOutbox)
    await db.delete(jobs)
  })

  test('a notification, counted by the bell, its event, and the away e-mail naming the task', async () => {
    const grace = await createUser(db, { name: 'Grace' })
    const taskId = await sharedTask()
    await insertShares(db, taskId, [grace.email])
    await updateTask(db, viewerOf(people.owner), taskId, update({ assigneeId: grace.id }))

    const graceViewer = viewerOf(grace)
    expect(await countUnreadMentions(db, graceViewer)).toBe(1)
    const [unread] = await listUnreadMentions(db, graceViewer)
    expect(unread).toMatchObject({
      type: 'assignment',
      taskId,
      fromUserName: 'Olive Owner',
      content: 'Plan the offsite',
    })
    const [line] = await listInboxMentions(db, graceViewer)
    expect(line).toMatchObject({ type: 'assignment', taskText: 'Plan the offsite' })
    const [event] = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, taskId), eq(events.type, 'mention')))
    expect(event?.payload).toMatchObject({ recipientId: grace.id, notificationId: unread?.id })

    vi.setSystemTime(T0 + env().MENTION_EMAIL_DELAY_MINUTES * MINUTE)
    await createJobRunner({ handlers: { [MENTION_EMAIL_JOB]: runMentionEmailJob } }).runDue()
    const sent = await db.select().from(emailOutbox).where(eq(emailOutbox.to, grace.email))
    expect(sent.map((email) => email.subject)).toEqual(['Olive Owner assigned you a task on Threadwork'])
    expect(sent[0]?.text).toContain('Olive Owner assigned you “Plan the offsite”')
  })

  test('two assignments while away: one e-mail counting both as notifications', async () => {
    const alan = await createUser(db, { name: 'Alan' })
    const owner = viewerOf(people.owner)
    for (const text of ['Book the venue', 'Order the food']) {
      const task = await createTask(
        db,
        owner,
        fields({ text, sharedWith: [alan.email], assigneeId: alan.id }),
      )
      expect(task.assigneeId).toBe(alan.id)
    }
    vi.setSystemTime(T0 + env().MENTION_EMAIL_DELAY_MINUTES * MINUTE)
    await createJobRunner({ handlers: { [MENTION_EMAIL_JOB]: runMentionEmailJob } }).runDue()
    const sent = await db.select().from(emailOutbox).where(eq(emailOutbox.to, alan.email))
    expect(sent.map((email) => email.subject)).toEqual(['You have 2 new notifications on Threadwork'])
    expect(sent[0]?.text).toContain('Olive Owner assigned you “Book the venue”')
    expect(sent[0]?.text).toContain('Olive Owner assigned you “Order the food”')
  })

  test('assigning yourself, or the same person again, notifies nobody', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    await updateTask(db, owner, taskId, update({ assigneeId: people.owner.id }))
    expect(await db.$count(notifications, eq(notifications.taskId, taskId))).toBe(0)
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id }))
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id, text: 'Plan it' }))
    expect(await db.$count(notifications, eq(notifications.taskId, taskId))).toBe(1)
  })

  test('an unshared assignee loses the assignment and its notification with the task', async () => {
    const taskId = await sharedTask()
    const owner = viewerOf(people.owner)
    const vera = viewerOf(people.verified)
    const count = await countUnreadMentions(db, vera)
    await updateTask(db, owner, taskId, update({ assigneeId: people.verified.id }))
    expect(await countUnreadMentions(db, vera)).toBe(count + 1)
    await shareTask(db, owner, taskId, [])
    expect(await countUnreadMentions(db, vera)).toBe(count)
  })
})
