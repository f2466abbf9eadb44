import { count, eq, getTableColumns, inArray, isNotNull, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import {
  commentReactions,
  comments,
  notifications,
  taskShares,
  tasks,
  users,
  workspaceMembers,
  workspaces,
} from '~/db/schema'
import { DEMO_PASSWORD, DEMO_TEAM, DEMO_USERS, seedDemoWorkspace } from '~/db/seed.server'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { DEFAULT_TIME_ZONE, todayIn } from '~/utils/calendar'
import { verifyPassword } from '~/utils/crypto.server'
import { isDueWithin } from '~/utils/due-date'

describe('seedDemoWorkspace', () => {
  let firstRun: boolean
  // Seeding hashes the demo password once with real scrypt: slow on a busy machine.
  beforeAll(async () => {
    firstRun = await seedDemoWorkspace(database())
  }, 30_000)

  test('fills an empty database with the three demo users', async () => {
    expect(firstRun).toBe(true)
    const rows = await database().select({ email: users.email, name: users.name }).from(users)
    expect(rows).toEqual(
      expect.arrayContaining(DEMO_USERS.map((user) => ({ email: user.email, name: user.name }))),
    )
    expect(rows).toHaveLength(3)
  })

  test('the printed demo password signs in as each demo user', { timeout: 30_000 }, async () => {
    const hashes = await database().select({ hash: users.passwordHash }).from(users)
    const [first] = hashes
    // The demo users share one hash, so one real scrypt verification (at the app's own
    // parameters) covers all three; wrong passwords are the password module's tests.
    expect(new Set(hashes.map((row) => row.hash))).toEqual(new Set([first?.hash]))
    expect(await verifyPassword(DEMO_PASSWORD, first?.hash ?? '')).toBe(true)
  })

  test('about twenty tasks across every status and priority, with subtasks, public ones and shares', async () => {
    const rows = await database().select().from(tasks)
    expect(rows.length).toBeGreaterThanOrEqual(12)
    expect(rows.length).toBeLessThanOrEqual(20)
    expect(new Set(rows.map((task) => task.status))).toEqual(new Set(STATUSES))
    expect(new Set(rows.map((task) => task.priority))).toEqual(new Set(PRIORITIES))
    expect(rows.some((task) => task.isPublic)).toBe(true)
    expect(rows.some((task) => task.parentTaskId !== null)).toBe(true)
    // Every demo user owns tasks, so signing in as anyone shows a workspace.
    expect(new Set(rows.map((task) => task.userId)).size).toBe(3)
    // Completed tasks carry their completion time; open ones do not.
    for (const task of rows) expect(task.completedAt !== null).toBe(task.status === 'Completed')

    const shares = await database().select().from(taskShares)
    expect(shares.length).toBeGreaterThan(0)
    const demoEmails: string[] = DEMO_USERS.map((user) => user.email)
    for (const share of shares) expect(demoEmails).toContain(share.email)
  })

  test('every column of a task has a value on some demo task, so the demo shows each field', async () => {
    const rows = await database().select().from(tasks)
    const empty = Object.keys(getTableColumns(tasks)).filter((column) =>
      rows.every((row) => row[column as keyof typeof row] === null),
    )
    expect(empty).toEqual([])
  })

  test('due dates, some overdue and some this week, and assignees who may be assigned', async () => {
    const rows = await database().select().from(tasks)
    const shares = await database().select().from(taskShares)
    const people = await database().select({ id: users.id, email: users.email }).from(users)
    const today = todayIn(DEFAULT_TIME_ZONE)
    expect(rows.some((task) => isDueWithin('overdue', task, today))).toBe(true)
    expect(rows.some((task) => isDueWithin('week', task, today))).toBe(true)
    const assigned = rows.filter((task) => task.assigneeId !== null)
    expect(assigned.length).toBeGreaterThan(2)
    expect(assigned.some((task) => task.assigneeId !== task.userId)).toBe(true)
    // Each assignee is a member of the task's workspace or a person it is shared with (all demo
    // users are verified): TASK_RULES.beAssigned.
    const members = await database().select().from(workspaceMembers)
    for (const task of assigned) {
      const email = people.find((person) => person.id === task.assigneeId)?.email
      const sharedWith = shares.filter((share) => share.taskId === task.id).map((share) => share.email)
      const isMember = members.some(
        (member) => member.workspaceId === task.workspaceId && member.userId === task.assigneeId,
      )
      expect(isMember || sharedWith.includes(email ?? '')).toBe(true)
    }
  })

  test('a team workspace, Threadwork Labs: Ada owns it, Grace is an admin, Alan a member', async () => {
    const db = database()
    const teams = await db.select().from(workspaces).where(isNull(workspaces.personalOf))
    expect(teams.map(({ name, slug }) => ({ name, slug }))).toEqual([
      { name: 'Threadwork Labs', slug: 'threadwork-labs' },
    ])
    const team = teams[0]
    const roles = await db
      .select({ email: users.email, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(eq(workspaceMembers.workspaceId, team?.id ?? ''))
    expect(roles.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'ada@example.com', role: 'owner' },
      { email: 'alan@example.com', role: 'member' },
      { email: 'grace@example.com', role: 'admin' },
    ])
    expect(DEMO_TEAM.members.map(([, role]) => role)).toEqual(['owner', 'admin', 'member'])
    // Beside it, each person's personal workspace, with them as its one member and owner.
    const personal = await db.select().from(workspaces).where(eq(workspaces.personalOf, workspaces.id))
    expect(personal).toHaveLength(3)
  })

  test('the team has four to six tasks of its own, the rest stay in their creators’ personal workspaces', async () => {
    const db = database()
    const [team] = await db.select().from(workspaces).where(eq(workspaces.slug, DEMO_TEAM.slug))
    const rows = await db.select().from(tasks)
    const inTeam = rows.filter((task) => task.workspaceId === team?.id)
    expect(inTeam.length).toBeGreaterThanOrEqual(4)
    expect(inTeam.length).toBeLessThanOrEqual(6)
    expect(new Set(inTeam.map((task) => task.status)).size).toBeGreaterThan(1)
    expect(new Set(inTeam.map((task) => task.priority)).size).toBeGreaterThan(1)
    for (const task of rows.filter((each) => each.workspaceId !== team?.id)) {
      expect(task.workspaceId).toBe(task.userId)
    }
    const [alan] = await db.select().from(users).where(eq(users.email, 'alan@example.com'))
    expect(inTeam.some((task) => task.assigneeId === alan?.id && task.userId !== alan?.id)).toBe(true)
    // One of them is discussed in a thread, with mentions among the members.
    const teamComments = await db
      .select()
      .from(comments)
      .where(
        inArray(
          comments.taskId,
          inTeam.map((task) => task.id),
        ),
      )
    expect(teamComments.some((comment) => comment.parentCommentId !== null)).toBe(true)
    const teamMentions = await db
      .select()
      .from(notifications)
      .where(
        inArray(
          notifications.commentId,
          teamComments.map((comment) => comment.id),
        ),
      )
    expect(teamMentions.length).toBeGreaterThan(0)
  })

  test('threaded comments with reactions and unread mention notifications', async () => {
    const db = database()
    const replies = await db.select().from(comments).where(isNotNull(comments.parentCommentId))
    expect(replies.length).toBeGreaterThan(0)
    const [reactionCount] = await db.select({ n: count() }).from(commentReactions)
    expect(reactionCount?.n).toBeGreaterThan(0)

    const mentions = await db.select().from(notifications)
    expect(mentions.length).toBeGreaterThan(0)
    for (const mention of mentions) {
      expect(mention.type).toBe('mention')
      expect(mention.commentId).not.toBeNull()
      expect(mention.recipientId).not.toBe(mention.fromUserId)
    }
    expect(mentions.some((mention) => !mention.isRead)).toBe(true)
  })

  test('running it again changes nothing', async () => {
    const db = database()
    const counts = () =>
      Promise.all([
        db.select({ n: count() }).from(users),
        db.select({ n: count() }).from(tasks),
        db.select({ n: count() }).from(comments),
        db.select({ n: count() }).from(workspaces),
        db.select({ n: count() }).from(workspaceMembers),
      ])
    const before = await counts()
    expect(await seedDemoWorkspace(db)).toBe(false)
    const after = await counts()
    expect(after).toEqual(before)
  })
})
