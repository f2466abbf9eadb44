import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import {
  comments,
  events,
  jobs,
  sessions,
  taskShares,
  tasks,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '~/db/schema'
import { WORKSPACE_LIMITS, type WorkspaceRole } from '~/domain/workspaces'
import { createJobRunner } from '~/jobs/jobs.server'
import { Forbidden, Invalid, NotFound } from '~/services/errors'
import { createSession } from '~/services/sessions.server'
import { createComment, createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { WORKSPACE_DELETION_JOB, workspaceDeletionHandler } from './deletion.server'
import { getWorkspace, listWorkspaces } from './reads.server'
import { CONFIRM_NAME_MESSAGE, MANAGERS_ONLY, OWNER_CANNOT_LEAVE, SLUG_TAKEN } from './workspace-schemas'
import {
  CHOOSE_AN_ADMIN,
  createWorkspace,
  deleteWorkspace,
  leaveWorkspace,
  OWNED_TEAMS_LIMIT_MESSAGE,
  OWNER_ONLY_DELETE,
  OWNER_ONLY_TRANSFER,
  PERSONAL_CANNOT_DELETE,
  PERSONAL_CANNOT_LEAVE,
  PERSONAL_CANNOT_TRANSFER,
  transferOwnership,
  updateWorkspace,
} from './workspaces.server'

const db = database()

let slugs = 0
const slug = (base = 'team') => `${base}-${++slugs}`

const actorOf = (user: { id: string; email: string; emailVerifiedAt: Date | null }) => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerifiedAt !== null,
})

async function person(overrides: Parameters<typeof createUser>[1] = {}) {
  return actorOf(await createUser(db, overrides))
}

/** A team owned by a new person, with people in the other roles. */
async function team(roles: WorkspaceRole[] = []) {
  const owner = await person()
  const workspace = await createWorkspace(db, owner, { name: 'Acme', slug: slug('acme') })
  const people = []
  for (const role of roles) {
    const member = await person()
    await db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: member.id, role })
    people.push(member)
  }
  return { owner, workspace, people }
}

async function rowOf(workspaceId: string) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId))
  return row
}

async function rolesOf(workspaceId: string) {
  const rows = await db
    .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId))
  return Object.fromEntries(rows.map((row) => [row.userId, row.role]))
}

describe('createWorkspace', () => {
  test('creates a team workspace with its creator as owner, trimming the name', async () => {
    const ada = await person()
    const created = await createWorkspace(db, ada, { name: '  Research  ', slug: 'research-1' })
    expect(created).toMatchObject({ name: 'Research', slug: 'research-1', isPersonal: false, role: 'owner' })
    expect(created.memberCount).toBe(1)
    expect(await rolesOf(created.id)).toEqual({ [ada.id]: 'owner' })
    expect((await listWorkspaces(db, ada)).map((w) => w.name)).toEqual(['Personal', 'Research'])
  })

  test.each([
    ['ab', 'Address must be 3 to 40 characters'],
    ['a'.repeat(41), 'Address must be 3 to 40 characters'],
    ['Research', 'Address may hold only lower-case letters, digits and hyphens'],
    ['my team', 'Address may hold only lower-case letters, digits and hyphens'],
    [' research', 'Address may hold only lower-case letters, digits and hyphens'],
    ['café-team', 'Address may hold only lower-case letters, digits and hyphens'],
  ])('refuses the address %j on its field, never rewriting it', async (bad, message) => {
    const ada = await person()
    const error = await createWorkspace(db, ada, { name: 'Research', slug: bad }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Invalid)
    expect((error as Invalid).issues).toContainEqual({ path: ['slug'], message })
    expect(await listWorkspaces(db, ada)).toHaveLength(1)
  })

  test.each([
    ['', 'Name is required'],
    ['   ', 'Name is required'],
    ['x'.repeat(61), 'Name must be at most 60 characters'],
  ])('refuses the name %j', async (bad, message) => {
    const ada = await person()
    const error = await createWorkspace(db, ada, { name: bad, slug: slug() }).catch((e: unknown) => e)
    expect((error as Invalid).issues).toContainEqual({ path: ['name'], message })
    expect(await listWorkspaces(db, ada)).toHaveLength(1)
  })

  test('a taken address says so on the field, whoever holds it, a personal one included', async () => {
    const ada = await person()
    const grace = await person()
    const taken = slug()
    await createWorkspace(db, ada, { name: 'First', slug: taken })
    await expect(createWorkspace(db, grace, { name: 'Second', slug: taken })).rejects.toEqual(
      new Invalid(SLUG_TAKEN, [{ path: ['slug'], message: SLUG_TAKEN }]),
    )
    const personal = await getWorkspace(db, ada, ada.id)
    await expect(createWorkspace(db, grace, { name: 'Third', slug: personal.slug })).rejects.toThrow(
      SLUG_TAKEN,
    )
    expect(await listWorkspaces(db, grace)).toHaveLength(1)
  })

  test(`at most ${WORKSPACE_LIMITS.ownedTeams} owned teams; personal and others' do not count`, async () => {
    const ada = await person()
    const { workspace: others } = await team()
    await db.insert(workspaceMembers).values({ workspaceId: others.id, userId: ada.id, role: 'admin' })
    for (let n = 0; n < WORKSPACE_LIMITS.ownedTeams; n++) {
      await createWorkspace(db, ada, { name: `Team ${n}`, slug: slug('limit') })
    }
    await expect(createWorkspace(db, ada, { name: 'One more', slug: slug('limit') })).rejects.toEqual(
      new Forbidden(OWNED_TEAMS_LIMIT_MESSAGE),
    )
    expect(await listWorkspaces(db, ada)).toHaveLength(WORKSPACE_LIMITS.ownedTeams + 2)
  })

  test('two creations of one address at once: one wins, the other is told it is taken', async () => {
    const [ada, grace] = [await person(), await person()]
    const contested = slug()
    const outcomes = await Promise.allSettled([
      createWorkspace(db, ada, { name: 'A', slug: contested }),
      createWorkspace(db, grace, { name: 'B', slug: contested }),
    ])
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    const rows = await db.select().from(workspaces).where(eq(workspaces.slug, contested))
    expect(rows).toHaveLength(1)
  })
})

describe('updateWorkspace', () => {
  test('the owner and admins rename it and change its address', async () => {
    const { owner, workspace, people } = await team(['admin'])
    const [admin] = people as [ReturnType<typeof actorOf>]
    expect(await updateWorkspace(db, owner, workspace.id, { name: 'Acme Inc' })).toMatchObject({
      name: 'Acme Inc',
      slug: workspace.slug,
    })
    const moved = slug('moved')
    expect(await updateWorkspace(db, admin, workspace.id, { slug: moved })).toMatchObject({ slug: moved })
    expect(await rowOf(workspace.id)).toMatchObject({ name: 'Acme Inc', slug: moved })
  })

  test('a member is refused with whose change it is; a stranger is told it does not exist', async () => {
    const { workspace, people } = await team(['member'])
    const stranger = await person()
    await expect(updateWorkspace(db, people[0] as never, workspace.id, { name: 'Mine' })).rejects.toEqual(
      new Forbidden(MANAGERS_ONLY),
    )
    await expect(updateWorkspace(db, stranger, workspace.id, { name: 'Mine' })).rejects.toEqual(
      new NotFound('Workspace not found'),
    )
    expect((await rowOf(workspace.id))?.name).toBe('Acme')
  })

  test("a taken or malformed address is refused and nothing changes; its own address is not 'taken'", async () => {
    const { owner, workspace } = await team()
    const other = await createWorkspace(db, await person(), { name: 'Other', slug: slug() })
    await expect(updateWorkspace(db, owner, workspace.id, { name: 'New', slug: other.slug })).rejects.toThrow(
      SLUG_TAKEN,
    )
    await expect(updateWorkspace(db, owner, workspace.id, { slug: 'Bad Slug' })).rejects.toBeInstanceOf(
      Invalid,
    )
    expect(await rowOf(workspace.id)).toMatchObject({ name: 'Acme', slug: workspace.slug })
    expect(
      await updateWorkspace(db, owner, workspace.id, { name: 'Acme', slug: workspace.slug }),
    ).toMatchObject({
      name: 'Acme',
    })
  })

  test('a personal workspace is renamed on the same rules', async () => {
    const ada = await person()
    const mine = slug('ada')
    expect(await updateWorkspace(db, ada, ada.id, { name: 'Ada’s', slug: mine })).toMatchObject({
      isPersonal: true,
      name: 'Ada’s',
      slug: mine,
    })
    await expect(updateWorkspace(db, ada, ada.id, { slug: 'ADA' })).rejects.toBeInstanceOf(Invalid)
  })
})

describe('leaveWorkspace', () => {
  test('a member leaves; their sessions working in it fall back to personal', async () => {
    const { workspace, people } = await team(['member', 'admin'])
    const [member, admin] = people as [ReturnType<typeof actorOf>, ReturnType<typeof actorOf>]
    const session = await createSession(db, member.id)
    await db.update(sessions).set({ activeWorkspaceId: workspace.id }).where(eq(sessions.id, session.id))
    await leaveWorkspace(db, member, workspace.id)
    await leaveWorkspace(db, admin, workspace.id)
    expect(Object.values(await rolesOf(workspace.id))).toEqual(['owner'])
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id))
    expect(row?.activeWorkspaceId).toBeNull()
    await expect(getWorkspace(db, member, workspace.id)).rejects.toBeInstanceOf(NotFound)
  })

  test('the owner must hand it on first; a personal workspace cannot be left; a stranger gets 404', async () => {
    const { owner, workspace } = await team()
    await expect(leaveWorkspace(db, owner, workspace.id)).rejects.toEqual(new Forbidden(OWNER_CANNOT_LEAVE))
    await expect(leaveWorkspace(db, owner, owner.id)).rejects.toEqual(new Forbidden(PERSONAL_CANNOT_LEAVE))
    await expect(leaveWorkspace(db, await person(), workspace.id)).rejects.toBeInstanceOf(NotFound)
    expect(await rolesOf(workspace.id)).toEqual({ [owner.id]: 'owner' })
  })

  test('leaving clears their assignments there, each with its event, unless the task is shared with them', async () => {
    const { owner, workspace, people } = await team(['member'])
    const [member] = people as [ReturnType<typeof actorOf>]
    const assigned = await createTask(db, {
      userId: owner.id,
      workspaceId: workspace.id,
      assigneeId: member.id,
    })
    const sharedToo = await createTask(db, {
      userId: owner.id,
      workspaceId: workspace.id,
      assigneeId: member.id,
    })
    await shareTask(db, sharedToo.id, [member.email])
    const elsewhere = await createTask(db, { userId: member.id, assigneeId: member.id })
    const someoneElses = await createTask(db, {
      userId: owner.id,
      workspaceId: workspace.id,
      assigneeId: owner.id,
    })

    await leaveWorkspace(db, member, workspace.id)

    const rows = await db
      .select({ id: tasks.id, assigneeId: tasks.assigneeId })
      .from(tasks)
      .where(inArray(tasks.id, [assigned.id, sharedToo.id, elsewhere.id, someoneElses.id]))
    expect(Object.fromEntries(rows.map((row) => [row.id, row.assigneeId]))).toEqual({
      [assigned.id]: null,
      [sharedToo.id]: member.id,
      [elsewhere.id]: member.id,
      [someoneElses.id]: owner.id,
    })
    const logged = await db
      .select({ taskId: events.taskId, type: events.type, payload: events.payload })
      .from(events)
      .where(inArray(events.taskId, [assigned.id, sharedToo.id, elsewhere.id, someoneElses.id]))
    expect(logged).toEqual([
      { taskId: assigned.id, type: 'task-updated', payload: { userId: member.id, taskId: assigned.id } },
    ])
  })
})

describe('transferOwnership', () => {
  test('the owner hands it to an admin and stays as an admin', async () => {
    const { owner, workspace, people } = await team(['admin', 'member'])
    const [admin, member] = people as [ReturnType<typeof actorOf>, ReturnType<typeof actorOf>]
    const after = await transferOwnership(db, owner, workspace.id, admin.id)
    expect(after.role).toBe('admin')
    expect(await rolesOf(workspace.id)).toEqual({
      [owner.id]: 'admin',
      [admin.id]: 'owner',
      [member.id]: 'member',
    })
    // The new owner may now leave only after handing it on; the old one may leave.
    await leaveWorkspace(db, owner, workspace.id)
    await expect(leaveWorkspace(db, admin, workspace.id)).rejects.toEqual(new Forbidden(OWNER_CANNOT_LEAVE))
  })

  test('only to an admin, only by the owner; nothing changes otherwise', async () => {
    const { owner, workspace, people } = await team(['admin', 'member'])
    const [admin, member] = people as [ReturnType<typeof actorOf>, ReturnType<typeof actorOf>]
    const stranger = await person()
    const before = await rolesOf(workspace.id)
    await expect(transferOwnership(db, owner, workspace.id, member.id)).rejects.toEqual(
      new Invalid(CHOOSE_AN_ADMIN, [{ path: ['toUserId'], message: CHOOSE_AN_ADMIN }]),
    )
    await expect(transferOwnership(db, owner, workspace.id, stranger.id)).rejects.toBeInstanceOf(Invalid)
    await expect(transferOwnership(db, owner, workspace.id, owner.id)).rejects.toBeInstanceOf(Invalid)
    await expect(transferOwnership(db, owner, workspace.id, '')).rejects.toBeInstanceOf(Invalid)
    await expect(transferOwnership(db, admin, workspace.id, admin.id)).rejects.toEqual(
      new Forbidden(OWNER_ONLY_TRANSFER),
    )
    await expect(transferOwnership(db, stranger, workspace.id, admin.id)).rejects.toBeInstanceOf(NotFound)
    await expect(transferOwnership(db, owner, owner.id, admin.id)).rejects.toEqual(
      new Forbidden(PERSONAL_CANNOT_TRANSFER),
    )
    expect(await rolesOf(workspace.id)).toEqual(before)
  })
})

describe('deleteWorkspace', () => {
  test('refuses all but its owner typing its exact name, and a personal workspace; nothing changes', async () => {
    const { owner, workspace, people } = await team(['admin'])
    const [admin] = people as [ReturnType<typeof actorOf>]
    const session = await createSession(db, admin.id)
    await db.update(sessions).set({ activeWorkspaceId: workspace.id }).where(eq(sessions.id, session.id))
    await expect(deleteWorkspace(db, owner, workspace.id, 'acme')).rejects.toEqual(
      new Invalid(CONFIRM_NAME_MESSAGE, [{ path: ['confirmName'], message: CONFIRM_NAME_MESSAGE }]),
    )
    await expect(deleteWorkspace(db, owner, workspace.id, 'Acme ')).rejects.toBeInstanceOf(Invalid)
    await expect(deleteWorkspace(db, owner, workspace.id, '')).rejects.toBeInstanceOf(Invalid)
    await expect(deleteWorkspace(db, admin, workspace.id, 'Acme')).rejects.toEqual(
      new Forbidden(OWNER_ONLY_DELETE),
    )
    await expect(deleteWorkspace(db, await person(), workspace.id, 'Acme')).rejects.toBeInstanceOf(NotFound)
    await expect(deleteWorkspace(db, owner, owner.id, 'Personal')).rejects.toEqual(
      new Forbidden(PERSONAL_CANNOT_DELETE),
    )
    expect(await rowOf(workspace.id)).toMatchObject({ slug: workspace.slug })
    expect(Object.keys(await rolesOf(workspace.id))).toHaveLength(2)
    expect(await db.select().from(jobs).where(eq(jobs.type, WORKSPACE_DELETION_JOB))).toEqual([])
    const [kept] = await db.select().from(sessions).where(eq(sessions.id, session.id))
    expect(kept?.activeWorkspaceId).toBe(workspace.id)
  })

  test('gone for everyone at once: members, invitations, sessions; its address free again', async () => {
    const { owner, workspace, people } = await team(['admin', 'member'])
    const [admin] = people as [ReturnType<typeof actorOf>]
    const task = await createTask(db, { userId: owner.id, workspaceId: workspace.id })
    await db.insert(workspaceInvitations).values({
      workspaceId: workspace.id,
      email: 'invitee@example.test',
      role: 'member',
      inviterId: owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    const session = await createSession(db, admin.id)
    await db.update(sessions).set({ activeWorkspaceId: workspace.id }).where(eq(sessions.id, session.id))

    await deleteWorkspace(db, owner, workspace.id, 'Acme')

    await expect(getWorkspace(db, owner, workspace.id)).rejects.toBeInstanceOf(NotFound)
    await expect(getWorkspace(db, admin, workspace.id)).rejects.toBeInstanceOf(NotFound)
    expect(await rolesOf(workspace.id)).toEqual({})
    expect(
      await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.workspaceId, workspace.id)),
    ).toEqual([])
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id))
    expect(row?.activeWorkspaceId).toBeNull()
    // The tasks wait for the job; the address is free for a new workspace now.
    expect(await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, task.id))).toHaveLength(1)
    await createWorkspace(db, owner, { name: 'Acme again', slug: workspace.slug })
    const [job] = await db.select().from(jobs).where(eq(jobs.type, WORKSPACE_DELETION_JOB))
    expect(job?.payload).toMatchObject({ workspaceId: workspace.id, deletedBy: owner.id })
  })

  test('the job deletes its tasks a batch per commit, those others see first, then the workspace', async () => {
    const { owner, workspace, people } = await team(['member'])
    const outsider = await createUser(db)
    const [member] = people as [ReturnType<typeof actorOf>]
    const inWorkspace = { userId: owner.id, workspaceId: workspace.id }
    const privateTasks = await db
      .insert(tasks)
      .values(Array.from({ length: 6 }, (_, n) => ({ ...inWorkspace, text: `Private ${n}` })))
      .returning()
    const parent = await createTask(db, { ...inWorkspace, isPublic: true, text: 'Public parent' })
    const subtask = await createTask(db, {
      ...inWorkspace,
      isPublic: true,
      parentTaskId: parent.id,
      text: 'Sub',
    })
    const shared = await createTask(db, { ...inWorkspace, text: 'Shared' })
    await shareTask(db, shared.id, [outsider.email])
    const comment = await createComment(db, { taskId: shared.id, userId: member.id })
    await db
      .insert(events)
      .values({ topic: 'comments', type: 'comment-added', taskId: shared.id, payload: {} })
    const keep = await createTask(db, { userId: owner.id, text: 'Personal, kept' })
    const all = [...privateTasks, parent, subtask, shared]

    await deleteWorkspace(db, owner, workspace.id, 'Acme')

    let clock = Date.now()
    const runner = createJobRunner({
      handlers: { [WORKSPACE_DELETION_JOB]: workspaceDeletionHandler({ batchSize: 2, batchesPerRun: 2 }) },
      now: () => clock,
    })
    const left = async () =>
      (await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.workspaceId, workspace.id))).map(
        (t) => t.id,
      )

    // One run: two batches of two, those others see first (a parent once its subtask is gone).
    await runner.runDue()
    const afterFirst = await left()
    expect(afterFirst).toHaveLength(all.length - 4)
    for (const seen of [shared, subtask, parent]) expect(afterFirst).not.toContain(seen.id)
    expect(await db.select().from(comments).where(eq(comments.id, comment.id))).toEqual([])
    expect(await rowOf(workspace.id)).toBeDefined()
    const [queued] = await db.select().from(jobs).where(eq(jobs.type, WORKSPACE_DELETION_JOB))
    expect(queued?.status).toBe('pending')

    clock += 1000
    await runner.runDue()
    clock += 1000
    await runner.runDue()
    expect(await left()).toEqual([])
    expect(await rowOf(workspace.id)).toBeUndefined()
    expect(await db.select().from(jobs).where(eq(jobs.type, WORKSPACE_DELETION_JOB))).toEqual([])
    expect(await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, keep.id))).toHaveLength(1)
    expect(await db.select().from(taskShares).where(eq(taskShares.taskId, shared.id))).toEqual([])

    // Every task's deletion is announced once, with the audience it had (its members), and
    // nothing older of it is left in the log.
    const logged = await db
      .select({ taskId: events.taskId, type: events.type, payload: events.payload })
      .from(events)
      .where(
        inArray(
          events.taskId,
          all.map((t) => t.id),
        ),
      )
    expect(logged.map((e) => e.type)).toEqual(all.map(() => 'task-deleted'))
    expect(logged.map((e) => e.taskId).sort()).toEqual(all.map((t) => t.id).sort())
    const sharedEvent = logged.find((e) => e.taskId === shared.id)
    expect(sharedEvent?.payload).toMatchObject({
      userId: owner.id,
      audience: {
        workspaceId: workspace.id,
        members: expect.arrayContaining([owner.id, member.id]),
        sharedWith: [outsider.email],
      },
    })
    expect(
      await db
        .select()
        .from(events)
        .where(and(eq(events.taskId, shared.id), eq(events.type, 'comment-added'))),
    ).toEqual([])
  })
})
