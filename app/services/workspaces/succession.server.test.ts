import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { jobs, tasks, workspaceMembers, workspaces } from '~/db/schema'
import type { WorkspaceRole } from '~/domain/workspaces'
import { createTask, createTeamWorkspace, createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { deleteAccount } from '../profile.server'
import { WORKSPACE_DELETION_JOB, workspaceDeletionHandler } from './deletion.server'
import { successionsOf } from './succession.server'

/**
 * An owner's account deleted (docs/decisions/050-an-owners-account-deleted.md): every team
 * workspace keeps exactly one owner — its longest-standing admin, else its longest-standing member
 * — and one nobody else is in goes with the account.
 */

const db = database()

async function join(
  workspaceId: string,
  userId: string,
  role: Exclude<WorkspaceRole, 'owner'>,
  joinedAt: number,
) {
  await db.insert(workspaceMembers).values({ workspaceId, userId, role, createdAt: new Date(joinedAt) })
}

const rolesIn = (workspaceId: string) =>
  db
    .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId))

describe("deleting a team workspace owner's account", () => {
  test('the longest-standing admin owns it next, ahead of members who joined earlier; others keep their roles and tasks', async () => {
    const owner = await createUser(db)
    const [earlyMember, earlyAdmin, lateAdmin] = [
      await createUser(db),
      await createUser(db),
      await createUser(db),
    ]
    const team = await createTeamWorkspace(db, { ownerId: owner.id, name: 'Atlas' })
    await join(team.id, earlyMember.id, 'member', 1_000)
    await join(team.id, lateAdmin.id, 'admin', 3_000)
    await join(team.id, earlyAdmin.id, 'admin', 2_000)
    const ownersTask = await createTask(db, { userId: owner.id, workspaceId: team.id })
    const membersTask = await createTask(db, { userId: earlyMember.id, workspaceId: team.id })

    expect(await successionsOf(db, owner.id)).toEqual([
      {
        workspaceId: team.id,
        name: 'Atlas',
        slug: team.slug,
        successor: { id: earlyAdmin.id, name: earlyAdmin.name },
      },
    ])
    await deleteAccount(db, owner.id, { password: TEST_PASSWORD })

    expect(new Set(await rolesIn(team.id))).toEqual(
      new Set([
        { userId: earlyAdmin.id, role: 'owner' },
        { userId: lateAdmin.id, role: 'admin' },
        { userId: earlyMember.id, role: 'member' },
      ]),
    )
    const left = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.workspaceId, team.id))
    // The owner's own tasks go with their account; the others' stay with the workspace.
    expect(left.map((task) => task.id)).toEqual([membersTask.id])
    expect(left).not.toContainEqual({ id: ownersTask.id })
  })

  test('without an admin, the longest-standing member owns it next', async () => {
    const owner = await createUser(db)
    const [first, second] = [await createUser(db), await createUser(db)]
    const team = await createTeamWorkspace(db, { ownerId: owner.id })
    await join(team.id, second.id, 'member', 2_000)
    await join(team.id, first.id, 'member', 1_000)

    await deleteAccount(db, owner.id, { password: TEST_PASSWORD })

    expect(new Set(await rolesIn(team.id))).toEqual(
      new Set([
        { userId: first.id, role: 'owner' },
        { userId: second.id, role: 'member' },
      ]),
    )
  })

  test('a workspace nobody else is in is deleted with the account, tasks of people who left included', async () => {
    const owner = await createUser(db)
    const former = await createUser(db)
    const team = await createTeamWorkspace(db, { ownerId: owner.id })
    await createTask(db, { userId: former.id, workspaceId: team.id })

    await deleteAccount(db, owner.id, { password: TEST_PASSWORD })

    const [marked] = await db.select().from(workspaces).where(eq(workspaces.id, team.id))
    expect(marked?.slug).toBe(`deleted-${team.id}`)
    const [job] = await db
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(eq(jobs.id, `${WORKSPACE_DELETION_JOB}:${team.id}`))
    expect(job).toBeDefined()
    await workspaceDeletionHandler()(db, job?.payload ?? {}, new Date())
    expect(await db.select().from(workspaces).where(eq(workspaces.id, team.id))).toEqual([])
    expect(await db.select().from(tasks).where(eq(tasks.workspaceId, team.id))).toEqual([])
  })

  test('workspaces the person is only a member of, and their personal one, need no successor', async () => {
    const someone = await createUser(db)
    const member = await createUser(db)
    const team = await createTeamWorkspace(db, {
      ownerId: someone.id,
      members: [{ userId: member.id, role: 'admin' }],
    })

    expect(await successionsOf(db, member.id)).toEqual([])
    await deleteAccount(db, member.id, { password: TEST_PASSWORD })
    expect(await rolesIn(team.id)).toEqual([{ userId: someone.id, role: 'owner' }])
  })
})
