import { expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import { NotFound } from '~/services/errors'
import { createUser } from '../../../tests/helpers/factories'
import { getWorkspace, getWorkspaceBySlug, listMembers, listWorkspaces } from './reads.server'

const db = database()

test('every account has its personal workspace, and lists it first, as its owner', async () => {
  const ada = await createUser(db, { name: 'Ada' })
  const [personal, ...others] = await listWorkspaces(db, ada)
  expect(others).toEqual([])
  expect(personal).toMatchObject({ id: ada.id, isPersonal: true, role: 'owner', memberCount: 1 })
  expect(personal?.slug).toMatch(/^[a-z0-9-]{3,40}$/)
})

test('a workspace someone is not in answers as one that does not exist', async () => {
  const ada = await createUser(db)
  const eve = await createUser(db)
  const [team] = await db
    .insert(workspaces)
    .values({ name: 'Team', slug: `team-${Date.now()}` })
    .returning()
  if (!team) throw new Error('no workspace')
  await db.insert(workspaceMembers).values({ workspaceId: team.id, userId: ada.id, role: 'owner' })
  expect((await getWorkspace(db, ada, team.id)).role).toBe('owner')
  await expect(getWorkspace(db, eve, team.id)).rejects.toEqual(new NotFound('Workspace not found'))
  await expect(getWorkspace(db, eve, 'no-such-workspace')).rejects.toEqual(
    new NotFound('Workspace not found'),
  )
  await expect(getWorkspaceBySlug(db, eve, team.slug)).rejects.toBeInstanceOf(NotFound)
  await expect(listMembers(db, eve, team.id)).rejects.toBeInstanceOf(NotFound)
  await db.insert(workspaceMembers).values({ workspaceId: team.id, userId: eve.id, role: 'member' })
  expect((await listMembers(db, eve, team.id)).map((member) => [member.userId, member.role])).toEqual([
    [ada.id, 'owner'],
    [eve.id, 'member'],
  ])
  expect((await listWorkspaces(db, eve)).map((workspace) => workspace.name)).toEqual(['Personal', 'Team'])
})
