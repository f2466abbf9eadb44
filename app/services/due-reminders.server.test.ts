import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { dueReminders, emailOutbox, jobs, tasks } from '~/db/schema'
import { env } from '~/env.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { createTask, createUser, shareTask } from '../../tests/helpers/factories'
import { planOf, statementsOf } from '../../tests/helpers/query-plan'
import { DUE_REMINDERS_JOB, scheduleDueReminders, sendDueReminders } from './due-reminders.server'
import { startHousekeeping, stopHousekeeping } from './housekeeping.server'
import { jobHandlers } from './job-handlers.server'
import { getEmailSettings, setEmailSetting } from './profile.server'

/**
 * Due-date reminders at fixed instants: who gets one, from when, in whose time zone, and that
 * runs racing or repeated never send a reminder twice. The outbox is what a person would receive.
 */

const db = database()

/** 23:30 UTC on March 4th: 08:30 on March 5th in Tokyo, 15:30 on March 4th in Los Angeles. */
const TOKYO_MORNING = new Date('2030-03-04T23:30:00Z')

afterEach(async () => {
  await db.delete(emailOutbox)
  await db.delete(dueReminders)
  await db.delete(tasks)
  await db.delete(jobs)
})

async function inboxOf(email: string) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.to, email))
}

describe('who is reminded, and when', () => {
  test('a task due today in Tokyo is not yet due in Los Angeles: at one instant only the Tokyo person is mailed', async () => {
    const tokyo = await createUser(db, { timeZone: 'Asia/Tokyo' })
    const losAngeles = await createUser(db, { timeZone: 'America/Los_Angeles' })
    await createTask(db, { userId: tokyo.id, text: 'Ship the release', dueDate: '2030-03-05' })
    await createTask(db, { userId: losAngeles.id, text: 'Review the release', dueDate: '2030-03-05' })

    await sendDueReminders(db, TOKYO_MORNING)

    expect(await inboxOf(tokyo.email)).toMatchObject([{ subject: 'Due today: Ship the release' }])
    expect(await inboxOf(losAngeles.email)).toEqual([])

    // 08:00 on March 5th in Los Angeles (16:00 UTC): now theirs goes, and Tokyo's not again.
    await sendDueReminders(db, new Date('2030-03-05T16:00:00Z'))
    expect(await inboxOf(losAngeles.email)).toMatchObject([{ subject: 'Due today: Review the release' }])
    expect(await inboxOf(tokyo.email)).toHaveLength(1)
  })

  test('nothing before 08:00 in the recipient’s zone (UTC while unknown), the e-mail from 08:00', async () => {
    const ada = await createUser(db, { timeZone: null })
    await createTask(db, { userId: ada.id, dueDate: '2030-06-10' })

    expect(await sendDueReminders(db, new Date('2030-06-10T07:59:59Z'))).toEqual({ emails: 0, tasks: 0 })
    expect(await inboxOf(ada.email)).toEqual([])

    expect(await sendDueReminders(db, new Date('2030-06-10T08:00:00Z'))).toEqual({ emails: 1, tasks: 1 })
    expect(await inboxOf(ada.email)).toHaveLength(1)
  })

  test('a day that has passed is not reminded of late, nor one still to come', async () => {
    const ada = await createUser(db, { timeZone: 'Europe/Berlin' })
    await createTask(db, { userId: ada.id, dueDate: '2030-06-09' })
    await createTask(db, { userId: ada.id, dueDate: '2030-06-11' })
    await sendDueReminders(db, new Date('2030-06-10T09:00:00Z'))
    expect(await inboxOf(ada.email)).toEqual([])
  })

  test('one e-mail per person naming everything due that day, each task linked', async () => {
    const ada = await createUser(db, { timeZone: 'UTC' })
    const first = await createTask(db, { userId: ada.id, text: 'Write the <agenda>', dueDate: '2030-06-10' })
    const second = await createTask(db, { userId: ada.id, text: 'Book the room', dueDate: '2030-06-10' })

    await sendDueReminders(db, new Date('2030-06-10T10:00:00Z'))

    const [email, ...more] = await inboxOf(ada.email)
    expect(more).toEqual([])
    expect(email?.subject).toBe('2 tasks due today on Threadwork')
    const base = env().BASE_URL
    for (const task of [first, second]) {
      expect(email?.text).toContain(`${task.text}: ${base}/task?task=${task.id}`)
      expect(email?.html).toContain(`href="${base}/task?task=${task.id}"`)
    }
    expect(email?.text).toContain('Due today, Monday, June 10:')
    expect(email?.html).toContain('Write the &lt;agenda&gt;')
    expect(email?.html).not.toContain('<agenda>')
    expect(email?.text).toContain(`${base}/settings`)
  })

  test('to the assignee when there is one, else to the owner', async () => {
    const owner = await createUser(db, { timeZone: 'UTC' })
    const assignee = await createUser(db, { timeZone: 'UTC' })
    const assigned = await createTask(db, {
      userId: owner.id,
      text: 'Assigned',
      dueDate: '2030-06-10',
      assigneeId: assignee.id,
    })
    await shareTask(db, assigned.id, [assignee.email])
    await createTask(db, { userId: owner.id, text: 'Unassigned', dueDate: '2030-06-10' })

    await sendDueReminders(db, new Date('2030-06-10T10:00:00Z'))

    expect(await inboxOf(assignee.email)).toMatchObject([{ subject: 'Due today: Assigned' }])
    expect(await inboxOf(owner.email)).toMatchObject([{ subject: 'Due today: Unassigned' }])
  })

  test('none for a Completed task, for someone who turned reminders off, or to an unverified address', async () => {
    const done = await createUser(db, { timeZone: 'UTC' })
    await createTask(db, {
      userId: done.id,
      dueDate: '2030-06-10',
      status: 'Completed',
      completedAt: new Date(),
    })
    const off = await createUser(db, { timeZone: 'UTC', emailOnDue: false })
    await createTask(db, { userId: off.id, dueDate: '2030-06-10' })
    const unverified = await createUser(db, { timeZone: 'UTC', emailVerifiedAt: null })
    await createTask(db, { userId: unverified.id, dueDate: '2030-06-10' })

    expect(await sendDueReminders(db, new Date('2030-06-10T10:00:00Z'))).toEqual({ emails: 0, tasks: 0 })
    for (const person of [done, off, unverified]) expect(await inboxOf(person.email)).toEqual([])

    // Turned back on the same day: the reminder goes at the next run.
    await setEmailSetting(db, off.id, 'emailOnDue', true)
    await sendDueReminders(db, new Date('2030-06-10T10:01:00Z'))
    expect(await inboxOf(off.email)).toHaveLength(1)
  })

  test('never to an assignee who may no longer see the task', async () => {
    const owner = await createUser(db, { timeZone: 'UTC' })
    const stranger = await createUser(db, { timeZone: 'UTC' })
    // Written around the services, as a stale row could be: assigned, never shared.
    await createTask(db, { userId: owner.id, dueDate: '2030-06-10', assigneeId: stranger.id })
    await sendDueReminders(db, new Date('2030-06-10T10:00:00Z'))
    expect(await inboxOf(stranger.email)).toEqual([])
  })
})

describe('sent once', () => {
  test('two runs racing send one e-mail; a run later sends none; a task made due today afterwards gets one of its own', async () => {
    const ada = await createUser(db, { timeZone: 'Asia/Tokyo' })
    await createTask(db, { userId: ada.id, text: 'First', dueDate: '2030-03-05' })
    await createTask(db, { userId: ada.id, text: 'Second', dueDate: '2030-03-05' })

    const raced = await Promise.all([
      sendDueReminders(db, TOKYO_MORNING),
      sendDueReminders(db, TOKYO_MORNING),
    ])
    expect(raced.reduce((sum, run) => sum + run.emails, 0)).toBe(1)
    expect(raced.reduce((sum, run) => sum + run.tasks, 0)).toBe(2)
    expect(await inboxOf(ada.email)).toHaveLength(1)

    // A restart, or the next minute's run: nothing new.
    expect(await sendDueReminders(db, new Date(TOKYO_MORNING.getTime() + 60_000))).toEqual({
      emails: 0,
      tasks: 0,
    })
    expect(await inboxOf(ada.email)).toHaveLength(1)

    // Later that day a task is made due today: the next run mails just it.
    const late = await createTask(db, { userId: ada.id, text: 'Third' })
    await db.update(tasks).set({ dueDate: '2030-03-05' }).where(eq(tasks.id, late.id))
    await sendDueReminders(db, new Date(TOKYO_MORNING.getTime() + 3 * 3_600_000))
    const inbox = await inboxOf(ada.email)
    expect(inbox).toHaveLength(2)
    const second = inbox.find((email) => email.subject === 'Due today: Third')
    expect(second?.text).not.toContain('First')
    expect(second?.text).not.toContain('Second')
  })

  test('a task moved to another day is reminded of again on that day', async () => {
    const ada = await createUser(db, { timeZone: 'UTC' })
    const task = await createTask(db, { userId: ada.id, dueDate: '2030-06-10' })
    await sendDueReminders(db, new Date('2030-06-10T10:00:00Z'))
    await db.update(tasks).set({ dueDate: '2030-06-11' }).where(eq(tasks.id, task.id))
    await sendDueReminders(db, new Date('2030-06-11T10:00:00Z'))
    expect(await inboxOf(ada.email)).toHaveLength(2)
  })
})

describe('cost', () => {
  test('each run reads the due-date index, never the whole tasks table', async () => {
    const owner = await createUser(db, { timeZone: 'UTC' })
    for (let i = 0; i < 30; i++) await createTask(db, { userId: owner.id })
    await createTask(db, { userId: owner.id, dueDate: '2030-06-10' })
    const sent = await statementsOf(db, () => sendDueReminders(db, new Date('2030-06-10T07:00:00Z')))

    expect(sent).toHaveLength(1)
    for (const statement of sent) {
      const steps = await planOf(db, statement)
      expect(steps.filter((step) => /^SCAN (tasks|users)\b/.test(step))).toEqual([])
      expect(steps).toContainEqual(expect.stringMatching(/SEARCH tasks USING INDEX tasks_due_idx/))
    }
  })
})

describe('the job', () => {
  test('the server makes sure it is scheduled when it starts', async () => {
    startHousekeeping()
    await stopHousekeeping()
    expect(await db.select().from(jobs).where(eq(jobs.id, DUE_REMINDERS_JOB))).toMatchObject([
      { type: DUE_REMINDERS_JOB, status: 'pending' },
    ])
  })

  test('runs on the runner’s clock and schedules itself a minute later, run after run', async () => {
    const ada = await createUser(db, { timeZone: 'Asia/Tokyo' })
    await createTask(db, { userId: ada.id, dueDate: '2030-03-05' })
    let now = TOKYO_MORNING.getTime() - 60 * 60_000
    const runner = createJobRunner({ handlers: jobHandlers, now: () => now })
    await scheduleDueReminders(db, new Date(now))

    // 07:30 in Tokyo: the job runs, sends nothing, and waits for the next minute.
    expect(await runner.runDue()).toBe(1)
    expect(await inboxOf(ada.email)).toEqual([])
    const [next] = await db.select().from(jobs).where(eq(jobs.id, DUE_REMINDERS_JOB))
    expect(next).toMatchObject({ status: 'pending', runAt: new Date(now + 60_000) })

    // Scheduling again (another worker booting) keeps the waiting run's time.
    await scheduleDueReminders(db, new Date(now))
    expect((await db.select().from(jobs).where(eq(jobs.id, DUE_REMINDERS_JOB)))[0]?.runAt).toEqual(
      new Date(now + 60_000),
    )

    now = TOKYO_MORNING.getTime()
    expect(await runner.runDue()).toBe(1)
    expect(await inboxOf(ada.email)).toHaveLength(1)
    expect(await db.select().from(jobs).where(eq(jobs.id, DUE_REMINDERS_JOB))).toMatchObject([
      { status: 'pending', runAt: new Date(now + 60_000) },
    ])
  })
})

test('reminders are on for everyone until they turn them off', async () => {
  const ada = await createUser(db)
  expect(await getEmailSettings(db, ada.id)).toEqual({ emailOnMention: true, emailOnDue: true })
  await setEmailSetting(db, ada.id, 'emailOnDue', false)
  expect(await getEmailSettings(db, ada.id)).toEqual({ emailOnMention: true, emailOnDue: false })
})
