import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events, sessions, tasks, users, workspaceMembers } from '~/db/schema'
import { MEMBER_REFUSALS as REFUSALS } from '~/domain/workspaces'
import { Forbidden, Invalid, NotFound } from '~/services/errors'
import { createTask, createTeamWorkspace, createUser, shareTask } from '../../../tests/helpers/factories'
import { createSession } from '../sessions.server'
import { getTask } from '../tasks/reads.server'
import { ROLE_REFUSED } from './invitation-schemas'
import { changeRole, MEMBER_NOT_FOUND, removeMember } from './members.server'
import { listMembers } from './reads.server'

const db = database()

/** A team of four: Olga owns it, Ada is an admin, Bob and Cy are members; Eve is in none of it. */
async function team() {
  const [olga, ada, bob, cy, eve] = await Promise.all(
    ['Olga', 'Ada', 'Bob', 'Cy', 'Eve'].map((name) => createUser(db, { name })),
  )
  if (!olga || !ada || !bob || !cy || !eve) throw new Error('no users')
  const workspace = await createTeamWorkspace(db, {
    ownerId: olga.id,
    members: [
      { userId: ada.id, role: 'admin' },
      { userId: bob.id, role: 'member' },
      { userId: cy.id, role: 'member' },
    ],
  })
  const as = (user: typeof olga) => ({ id: user.id, email: user.email, emailVerified: true })
  return { olga, ada, bob, cy, eve, workspace, as }
}

async function roleOf(workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
  return row?.role ?? null
}

describe('changeRole', () => {
  test('the owner makes a member an admin and an admin a member', async () => {
    const { olga, ada, bob, workspace, as } = await team()
    expect(await changeRole(db, as(olga), workspace.id, bob.id, 'admin')).toEqual({
      userId: bob.id,
      role: 'admin',
    })
    expect(await roleOf(workspace.id, bob.id)).toBe('admin')
    await changeRole(db, as(olga), workspace.id, ada.id, 'member')
    expect(await roleOf(workspace.id, ada.id)).toBe('member')
    const roles = (await listMembers(db, as(olga), workspace.id)).map((member) => [
      member.userId,
      member.role,
    ])
    expect(roles).toContainEqual([bob.id, 'admin'])
    expect(roles).toContainEqual([ada.id, 'member'])
  })

  test('an admin makes nobody an admin and changes no admin’s role; a member changes no role', async () => {
    const { olga, ada, bob, cy, workspace, as } = await team()
    await changeRole(db, as(olga), workspace.id, cy.id, 'admin')
    await expect(changeRole(db, as(ada), workspace.id, bob.id, 'admin')).rejects.toEqual(
      new Forbidden(REFUSALS.makeAdmin),
    )
    await expect(changeRole(db, as(ada), workspace.id, cy.id, 'member')).rejects.toEqual(
      new Forbidden(REFUSALS.adminRole),
    )
    await expect(changeRole(db, as(ada), workspace.id, ada.id, 'member')).rejects.toEqual(
      new Forbidden(REFUSALS.adminRole),
    )
    await expect(changeRole(db, as(bob), workspace.id, bob.id, 'admin')).rejects.toEqual(
      new Forbidden(REFUSALS.changeRole),
    )
    expect([await roleOf(workspace.id, bob.id), await roleOf(workspace.id, cy.id)]).toEqual([
      'member',
      'admin',
    ])
  })

  test('nobody is made owner this way, and a role that does not exist is refused with the same words', async () => {
    const { olga, bob, workspace, as } = await team()
    for (const role of ['owner', 'superuser', '']) {
      const refusal = await changeRole(db, as(olga), workspace.id, bob.id, role).catch(
        (error: unknown) => error,
      )
      expect(refusal).toBeInstanceOf(Invalid)
      expect(refusal).toMatchObject({
        message: ROLE_REFUSED,
        issues: [{ path: ['role'], message: ROLE_REFUSED }],
      })
    }
    expect(await roleOf(workspace.id, bob.id)).toBe('member')
    expect(await roleOf(workspace.id, olga.id)).toBe('owner')
  })

  test('the owner’s own role never changes here, not even by the owner', async () => {
    const { olga, ada, workspace, as } = await team()
    await expect(changeRole(db, as(olga), workspace.id, olga.id, 'admin')).rejects.toEqual(
      new Forbidden(REFUSALS.ownerRole),
    )
    await expect(changeRole(db, as(ada), workspace.id, olga.id, 'member')).rejects.toEqual(
      new Forbidden(REFUSALS.ownerRole),
    )
    expect(await roleOf(workspace.id, olga.id)).toBe('owner')
  })

  test('a person not in the workspace is an unknown member; a workspace the actor is not in, an unknown workspace', async () => {
    const { olga, eve, workspace, as } = await team()
    await expect(changeRole(db, as(olga), workspace.id, eve.id, 'admin')).rejects.toEqual(
      new NotFound(MEMBER_NOT_FOUND),
    )
    await expect(changeRole(db, as(olga), workspace.id, 'no-such-user', 'admin')).rejects.toEqual(
      new NotFound(MEMBER_NOT_FOUND),
    )
    await expect(changeRole(db, as(eve), workspace.id, olga.id, 'admin')).rejects.toEqual(
      new NotFound('Workspace not found'),
    )
    await expect(changeRole(db, as(eve), 'no-such-workspace', olga.id, 'admin')).rejects.toEqual(
      new NotFound('Workspace not found'),
    )
    expect(await roleOf(workspace.id, eve.id)).toBeNull()
  })

  test('a personal workspace has its owner alone: there is nobody to change', async () => {
    const { eve, olga, as } = await team()
    await expect(changeRole(db, as(eve), eve.id, eve.id, 'member')).rejects.toEqual(
      new Forbidden(REFUSALS.ownerRole),
    )
    await expect(changeRole(db, as(eve), eve.id, olga.id, 'member')).rejects.toEqual(
      new NotFound(MEMBER_NOT_FOUND),
    )
  })
})

describe('removeMember', () => {
  test('an admin removes a member, who then sees nothing of the workspace', async () => {
    const { olga, ada, bob, workspace, as } = await team()
    const task = await createTask(db, { userId: olga.id, workspaceId: workspace.id })
    expect((await getTask(db, as(bob), task.id)).task.id).toBe(task.id)
    await removeMember(db, as(ada), workspace.id, bob.id)
    expect(await roleOf(workspace.id, bob.id)).toBeNull()
    await expect(getTask(db, as(bob), task.id)).rejects.toBeInstanceOf(NotFound)
    await expect(listMembers(db, as(bob), workspace.id)).rejects.toEqual(new NotFound('Workspace not found'))
  })

  test('only the owner removes an admin; nobody removes the owner; nobody removes themselves here', async () => {
    const { olga, ada, bob, cy, workspace, as } = await team()
    await changeRole(db, as(olga), workspace.id, cy.id, 'admin')
    await expect(removeMember(db, as(ada), workspace.id, cy.id)).rejects.toEqual(
      new Forbidden(REFUSALS.removeAdmin),
    )
    await expect(removeMember(db, as(ada), workspace.id, olga.id)).rejects.toEqual(
      new Forbidden(REFUSALS.removeOwner),
    )
    await expect(removeMember(db, as(olga), workspace.id, olga.id)).rejects.toEqual(
      new Forbidden(REFUSALS.removeSelf),
    )
    await expect(removeMember(db, as(ada), workspace.id, ada.id)).rejects.toEqual(
      new Forbidden(REFUSALS.removeSelf),
    )
    await expect(removeMember(db, as(bob), workspace.id, cy.id)).rejects.toEqual(
      new Forbidden(REFUSALS.remove),
    )
    expect(await Promise.all([olga, ada, cy].map((user) => roleOf(workspace.id, user.id)))).toEqual([
      'owner',
      'admin',
      'admin',
    ])
    await removeMember(db, as(olga), workspace.id, cy.id)
    expect(await roleOf(workspace.id, cy.id)).toBeNull()
  })

  test('someone not in the workspace is an unknown member; an outsider is told the workspace does not exist', async () => {
    const { olga, bob, eve, workspace, as } = await team()
    await expect(removeMember(db, as(olga), workspace.id, eve.id)).rejects.toEqual(
      new NotFound(MEMBER_NOT_FOUND),
    )
    await expect(removeMember(db, as(eve), workspace.id, bob.id)).rejects.toEqual(
      new NotFound('Workspace not found'),
    )
    expect(await roleOf(workspace.id, bob.id)).toBe('member')
  })

  test('clears, in the same commit, their assignments on the workspace’s tasks not shared with their verified address, each with its event', async () => {
    const { olga, bob, workspace, as } = await team()
    const other = await createTeamWorkspace(db, {
      ownerId: olga.id,
      members: [{ userId: bob.id, role: 'member' }],
    })
    const [lost, shared, elsewhere, someoneElses] = await Promise.all([
      createTask(db, { userId: olga.id, workspaceId: workspace.id, assigneeId: bob.id }),
      createTask(db, { userId: olga.id, workspaceId: workspace.id, assigneeId: bob.id }),
      createTask(db, { userId: olga.id, workspaceId: other.id, assigneeId: bob.id }),
      createTask(db, { userId: olga.id, workspaceId: workspace.id, assigneeId: olga.id }),
    ])
    if (!lost || !shared || !elsewhere || !someoneElses) throw new Error('no tasks')
    await shareTask(db, shared.id, [bob.email])

    await removeMember(db, as(olga), workspace.id, bob.id)

    const assignees = await db.select({ id: tasks.id, assigneeId: tasks.assigneeId }).from(tasks)
    const assigneeOf = (id: string) => assignees.find((task) => task.id === id)?.assigneeId
    expect(assigneeOf(lost.id)).toBeNull()
    expect(assigneeOf(shared.id)).toBe(bob.id)
    expect(assigneeOf(elsewhere.id)).toBe(bob.id)
    expect(assigneeOf(someoneElses.id)).toBe(olga.id)
    const logged = await db.select().from(events).where(eq(events.type, 'task-updated'))
    expect(logged.map((event) => event.taskId)).toEqual([lost.id])
    expect(logged[0]).toMatchObject({
      topic: 'tasks',
      taskId: lost.id,
      payload: { taskId: lost.id, userId: olga.id },
    })
    // Still theirs, and still theirs to see: the task is shared with them.
    expect((await getTask(db, as(bob), shared.id)).task.assigneeId).toBe(bob.id)
  })

  test('a share with an address they have not verified does not keep the assignment', async () => {
    const { olga, workspace, as } = await team()
    const dan = await createUser(db, { emailVerifiedAt: null })
    await db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: dan.id, role: 'member' })
    const task = await createTask(db, { userId: olga.id, workspaceId: workspace.id, assigneeId: dan.id })
    await shareTask(db, task.id, [dan.email])
    await removeMember(db, as(olga), workspace.id, dan.id)
    const [row] = await db.select({ assigneeId: tasks.assigneeId }).from(tasks).where(eq(tasks.id, task.id))
    expect(row?.assigneeId).toBeNull()
    const [user] = await db.select().from(users).where(eq(users.id, dan.id))
    expect(user?.emailVerifiedAt).toBeNull()
  })

  test('their sessions that worked in the workspace go back to their personal one; others’ stay', async () => {
    const { olga, ada, bob, workspace, as } = await team()
    const bobs = await createSession(db, bob.id)
    const adas = await createSession(db, ada.id)
    await db
      .update(sessions)
      .set({ activeWorkspaceId: workspace.id })
      .where(inArray(sessions.id, [bobs.id, adas.id]))
    await removeMember(db, as(olga), workspace.id, bob.id)
    const rows = await db.select({ id: sessions.id, active: sessions.activeWorkspaceId }).from(sessions)
    expect(rows.find((row) => row.id === bobs.id)?.active).toBeNull()
    expect(rows.find((row) => row.id === adas.id)?.active).toBe(workspace.id)
  })

  test('a refused removal clears nothing', async () => {
    const { olga, ada, workspace, as } = await team()
    const task = await createTask(db, { userId: olga.id, workspaceId: workspace.id, assigneeId: ada.id })
    const before = await db.$count(events)
    await expect(removeMember(db, as(ada), workspace.id, olga.id)).rejects.toBeInstanceOf(Forbidden)
    await expect(removeMember(db, as(ada), workspace.id, ada.id)).rejects.toBeInstanceOf(Forbidden)
    const [row] = await db.select({ assigneeId: tasks.assigneeId }).from(tasks).where(eq(tasks.id, task.id))
    expect(row?.assigneeId).toBe(ada.id)
    expect(await db.$count(events)).toBe(before)
  })
})
