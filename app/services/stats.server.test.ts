import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import { startOfDay } from '~/utils/calendar'
import { createTask, createUser, shareTask } from '../../tests/helpers/factories'
import {
  getDueCounts,
  getMostRecentCompleted,
  getMostRecentCreated,
  getProductivityInsights,
  getTaskStats,
  summarize,
} from './stats.server'

/**
 * The dashboard's numbers on fixtures with known answers. The clock is fixed on Wednesday
 * 11 March 2026, 15:00 UTC: three days after New York moved its clocks forward (Sunday 8 March,
 * a 23-hour day), so "last week" there is an hour shorter than in UTC.
 */

const db = database()
const NOW = new Date('2026-03-11T15:00:00Z')
const HOUR = 3_600_000

async function person() {
  const user = await createUser(db)
  return { ...user, emailVerified: user.emailVerifiedAt !== null }
}

async function completedAt(userId: string, at: string, hrs: number, hoursTaken: number) {
  const completed = new Date(at)
  return createTask(db, {
    userId,
    hrs,
    status: 'Completed',
    completedAt: completed,
    createdAt: new Date(completed.getTime() - hoursTaken * HOUR),
  })
}

describe('getTaskStats', () => {
  test('a new person has zeros everywhere, nothing recent, and a summary that says so', async () => {
    const ada = await person()

    const stats = await getTaskStats(db, ada, personalWorkspaceId(ada))
    const insights = await getProductivityInsights(db, ada, personalWorkspaceId(ada), {
      timeZone: 'UTC',
      now: NOW,
    })

    expect(stats.own).toEqual({
      total: 0,
      byStatus: { 'Not Started': 0, 'In Progress': 0, Completed: 0 },
      byPriority: { high: 0, medium: 0, low: 0 },
      hoursPlanned: 0,
      hoursCompleted: 0,
      completionRate: 0,
      subtasks: { done: 0, total: 0 },
    })
    expect(stats.shared.total).toBe(0)
    expect(insights).toMatchObject({
      completedThisWeek: 0,
      completedLastWeek: 0,
      weekOverWeekChange: 0,
      medianHoursToComplete: null,
      busiestWeekday: null,
      currentStreakDays: 0,
      summary: 'You have not completed a task this week or last week yet.',
    })
    expect(insights.hoursPerWeek).toHaveLength(8)
    expect(insights.completionsPerDay).toHaveLength(30)
    expect(insights.completionsPerDay.every((day) => day.completed === 0)).toBe(true)
    expect(await getMostRecentCompleted(db, ada, personalWorkspaceId(ada))).toBeNull()
    expect(await getMostRecentCreated(db, ada, personalWorkspaceId(ada))).toBeNull()
  })

  test('counts top-level tasks as /task lists them, subtasks apart, and shared tasks apart', async () => {
    const ada = await person()
    const grace = await person()
    const done = await createTask(db, { userId: ada.id, priority: 'high', status: 'Completed', hrs: 3 })
    await createTask(db, { userId: ada.id, priority: 'medium', status: 'In Progress', hrs: 2 })
    await createTask(db, { userId: ada.id, priority: 'low', status: 'Not Started', hrs: 1 })
    await createTask(db, { userId: ada.id, parentTaskId: done.id, status: 'Completed', hrs: 5 })
    await createTask(db, { userId: ada.id, parentTaskId: done.id, hrs: 5 })
    const sharedWithAda = await createTask(db, { userId: grace.id, status: 'Completed', hrs: 4 })
    await shareTask(db, sharedWithAda.id, [ada.email])
    // Grace's other tasks, and Ada's task shared with Grace, are not Ada's shared tasks.
    await createTask(db, { userId: grace.id, hrs: 8 })
    await shareTask(db, done.id, [grace.email])

    const stats = await getTaskStats(db, ada, personalWorkspaceId(ada))

    expect(stats.own).toEqual({
      total: 3,
      byStatus: { 'Not Started': 1, 'In Progress': 1, Completed: 1 },
      byPriority: { high: 1, medium: 1, low: 1 },
      hoursPlanned: 6,
      hoursCompleted: 3,
      completionRate: 33,
      subtasks: { done: 1, total: 2 },
    })
    expect(stats.shared).toEqual({
      total: 1,
      byStatus: { 'Not Started': 0, 'In Progress': 0, Completed: 1 },
      byPriority: { high: 0, medium: 1, low: 0 },
      hoursPlanned: 4,
      hoursCompleted: 4,
      completionRate: 100,
    })
  })

  test('shares reach only a verified address', async () => {
    const grace = await person()
    const unverified = await createUser(db, { emailVerifiedAt: null })
    const task = await createTask(db, { userId: grace.id })
    await shareTask(db, task.id, [unverified.email])

    const stats = await getTaskStats(
      db,
      { ...unverified, emailVerified: false },
      personalWorkspaceId(unverified),
    )

    expect(stats.shared.total).toBe(0)
  })
})

describe('getProductivityInsights', () => {
  async function fixture() {
    const ada = await person()
    // UTC: Monday 9 March (this week). New York: 23:30 on Sunday 8 March (last week).
    await completedAt(ada.id, '2026-03-09T03:30:00Z', 2, 1)
    await completedAt(ada.id, '2026-03-10T12:00:00Z', 1, 2)
    await completedAt(ada.id, '2026-03-11T14:00:00Z', 3, 3)
    // UTC: Monday 2 March (last week). New York: Sunday 1 March (the week before).
    await completedAt(ada.id, '2026-03-02T04:30:00Z', 1, 4)
    await completedAt(ada.id, '2026-03-04T12:00:00Z', 2, 5)
    // Neither a subtask nor an unfinished task nor someone else's task counts.
    const parent = await createTask(db, { userId: ada.id })
    await createTask(db, {
      userId: ada.id,
      parentTaskId: parent.id,
      status: 'Completed',
      completedAt: new Date('2026-03-11T10:00:00Z'),
    })
    await completedAt((await person()).id, '2026-03-11T10:00:00Z', 8, 1)
    return ada
  }

  test('in UTC: weeks from Monday 00:00 UTC', async () => {
    const ada = await fixture()

    const insights = await getProductivityInsights(db, ada, personalWorkspaceId(ada), {
      timeZone: 'UTC',
      now: NOW,
    })

    expect(insights).toMatchObject({
      timeZone: 'UTC',
      completedThisWeek: 3,
      completedLastWeek: 2,
      weekOverWeekChange: 1,
      medianHoursToComplete: 3,
      busiestWeekday: { weekday: 'Monday', completed: 2 },
      currentStreakDays: 3,
      summary: 'You completed 3 tasks this week, 1 more than last week.',
    })
    expect(insights.hoursPerWeek.slice(-3)).toEqual([
      { weekStart: '2026-02-23', hours: 0, completed: 0 },
      { weekStart: '2026-03-02', hours: 3, completed: 2 },
      { weekStart: '2026-03-09', hours: 6, completed: 3 },
    ])
    expect(insights.hoursPerWeek[0]?.weekStart).toBe('2026-01-19')
    expect(insights.completionsPerDay.at(-1)).toEqual({ date: '2026-03-11', completed: 1 })
    expect(insights.completionsPerDay[0]?.date).toBe('2026-02-10')
    expect(insights.completionsPerDay.find((day) => day.date === '2026-03-08')?.completed).toBe(0)
  })

  test('in New York across the DST change: the same instants fall in other days and weeks', async () => {
    const ada = await fixture()

    const insights = await getProductivityInsights(db, ada, personalWorkspaceId(ada), {
      timeZone: 'America/New_York',
      now: NOW,
    })

    expect(insights).toMatchObject({
      completedThisWeek: 2,
      completedLastWeek: 2,
      weekOverWeekChange: 0,
      busiestWeekday: { weekday: 'Wednesday', completed: 2 },
      currentStreakDays: 2,
      summary: 'You completed 2 tasks this week, the same as last week.',
    })
    expect(insights.hoursPerWeek.slice(-3)).toEqual([
      { weekStart: '2026-02-23', hours: 1, completed: 1 },
      { weekStart: '2026-03-02', hours: 4, completed: 2 },
      { weekStart: '2026-03-09', hours: 4, completed: 2 },
    ])
    expect(insights.completionsPerDay.find((day) => day.date === '2026-03-08')?.completed).toBe(1)
  })

  test('a streak longer than the charted weeks is counted to its start; today without one yet does not break it', async () => {
    const ada = await person()
    const yesterdayNoon = new Date('2026-03-10T12:00:00Z').getTime()
    for (let day = 0; day < 70; day++) {
      await completedAt(ada.id, new Date(yesterdayNoon - day * 24 * HOUR).toISOString(), 1, 1)
    }

    const insights = await getProductivityInsights(db, ada, personalWorkspaceId(ada), {
      timeZone: 'UTC',
      now: NOW,
    })

    expect(insights.currentStreakDays).toBe(70)
    expect(insights.completedThisWeek).toBe(2)
  })
})

describe('getDueCounts', () => {
  test('overdue and due this week in the person’s zone, own and assigned apart, never Completed', async () => {
    const ada = await person()
    const grace = await person()
    for (const dueDate of ['2026-03-02', '2026-03-11', '2026-03-15', '2026-03-16']) {
      await createTask(db, { userId: ada.id, dueDate })
    }
    await createTask(db, { userId: ada.id, dueDate: '2026-03-02', status: 'Completed', completedAt: NOW })
    await createTask(db, { userId: ada.id, dueDate: '2026-03-12', assigneeId: grace.id })
    const assigned = await createTask(db, { userId: grace.id, dueDate: '2026-03-11', assigneeId: ada.id })
    await shareTask(db, assigned.id, [ada.email])
    // Written around the services: assigned, never shared, so not Ada's to count.
    await createTask(db, { userId: grace.id, dueDate: '2026-03-13', assigneeId: ada.id })

    // NOW is Wednesday 11 March, 08:00 in Los Angeles: the 11th is today there, this week runs to Sunday the 15th.
    expect(
      await getDueCounts(db, ada, personalWorkspaceId(ada), { timeZone: 'America/Los_Angeles', now: NOW }),
    ).toEqual({
      own: { overdue: 1, dueThisWeek: 3 },
      assigned: { overdue: 0, dueThisWeek: 1 },
    })
    // ... and Thursday 12 March, 00:00 in Tokyo: the 11th has passed.
    expect(
      await getDueCounts(db, ada, personalWorkspaceId(ada), { timeZone: 'Asia/Tokyo', now: NOW }),
    ).toEqual({
      own: { overdue: 2, dueThisWeek: 2 },
      assigned: { overdue: 1, dueThisWeek: 0 },
    })
    // Grace's own count holds the task she assigned to Ada; Ada's, assigned to Grace but not shared with her, is not hers.
    expect(await getDueCounts(db, grace, personalWorkspaceId(grace), { timeZone: 'UTC', now: NOW })).toEqual({
      own: { overdue: 0, dueThisWeek: 2 },
      assigned: { overdue: 0, dueThisWeek: 0 },
    })
  })
})

describe('most recent tasks', () => {
  test('the last completed and the last created, as the task list shows them', async () => {
    const ada = await person()
    const first = await completedAt(ada.id, '2026-03-10T12:00:00Z', 1, 1)
    await completedAt(ada.id, '2026-03-09T12:00:00Z', 1, 100)
    const latest = await createTask(db, {
      userId: ada.id,
      text: 'Newest',
      createdAt: new Date('2026-03-11T00:00:00Z'),
    })

    expect(await getMostRecentCompleted(db, ada, personalWorkspaceId(ada))).toMatchObject({
      id: first.id,
      status: 'Completed',
      ownerName: ada.name,
    })
    expect(await getMostRecentCreated(db, ada, personalWorkspaceId(ada))).toMatchObject({
      id: latest.id,
      text: 'Newest',
      subtaskCount: 0,
    })
  })
})

describe('summarize', () => {
  test.each([
    [6, 4, 'You completed 6 tasks this week, 2 more than last week.'],
    [1, 3, 'You completed 1 task this week, 2 fewer than last week.'],
    [0, 1, 'You completed 0 tasks this week, 1 fewer than last week.'],
    [0, 0, 'You have not completed a task this week or last week yet.'],
  ])('%i this week, %i last week', (thisWeek, lastWeek, sentence) => {
    expect(summarize(thisWeek, lastWeek)).toBe(sentence)
  })
})

describe('startOfDay', () => {
  test('local midnight across DST changes: a 23-hour day in New York, a 25-hour day in Berlin', () => {
    const ny = 'America/New_York'
    expect(new Date(startOfDay({ year: 2026, month: 3, day: 8 }, ny)).toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    )
    expect(new Date(startOfDay({ year: 2026, month: 3, day: 9 }, ny)).toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    )
    const berlin = 'Europe/Berlin'
    expect(new Date(startOfDay({ year: 2026, month: 10, day: 25 }, berlin)).toISOString()).toBe(
      '2026-10-24T22:00:00.000Z',
    )
    expect(new Date(startOfDay({ year: 2026, month: 10, day: 26 }, berlin)).toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    )
  })
})
