import { expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import type { WorkspaceRole } from '~/domain/workspaces'
import { createTask, createUser } from '../../../tests/helpers/factories'
import { listAllWorkspaces } from './workspaces.server'

const db = database()

async function team(name: string, people: [string, WorkspaceRole][], createdAt = new Date()) {
  const [row] = await db
    .insert(workspaces)
    .values({
      name,
      slug: `${name.toLowerCase().replaceAll(' ', '-')}-${crypto.randomUUID().slice(0, 8)}`,
      createdAt,
    })
    .returning()
  if (!row) throw new Error('no workspace')
  if (people.length > 0) {
    await db
      .insert(workspaceMembers)
      .values(people.map(([userId, role]) => ({ workspaceId: row.id, userId, role })))
  }
  return row
}

test('a team workspace with its owner, members and tasks counted; personal ones only when asked', async () => {
  const owner = await createUser(db, { name: 'Owner Person' })
  const admin = await createUser(db)
  const member = await createUser(db)
  const labs = await team('Counted Labs', [
    [owner.id, 'owner'],
    [admin.id, 'admin'],
    [member.id, 'member'],
  ])
  const parent = await createTask(db, { userId: owner.id, workspaceId: labs.id })
  await createTask(db, { userId: member.id, workspaceId: labs.id, parentTaskId: parent.id })
  await createTask(db, { userId: owner.id })

  const { workspaces: teams } = await listAllWorkspaces(db)
  const listed = teams.find((row) => row.id === labs.id)
  expect(listed).toMatchObject({
    name: 'Counted Labs',
    slug: labs.slug,
    isPersonal: false,
    ownerId: owner.id,
    ownerName: 'Owner Person',
    ownerEmail: owner.email,
    memberCount: 3,
    taskCount: 2,
  })
  expect(teams.every((row) => !row.isPersonal)).toBe(true)

  const { workspaces: all } = await listAllWorkspaces(db, { includePersonal: true })
  const personal = all.find((row) => row.id === owner.id)
  expect(personal).toMatchObject({ isPersonal: true, ownerId: owner.id, memberCount: 1, taskCount: 1 })
})

test('newest first, a page of 50 at a time, with no row lost or repeated among equal times', async () => {
  const owner = await createUser(db)
  const sameTime = new Date(Date.now() + 60 * 60_000)
  const made = []
  for (let n = 0; n < 52; n++) made.push(await team(`Paged ${n}`, [[owner.id, 'owner']], sameTime))
  // Owner-less workspaces cannot exist in the app, but the page shows one without failing.
  const orphan = await team('Orphan', [], new Date(sameTime.getTime() - 1))

  const first = await listAllWorkspaces(db)
  expect(first.workspaces).toHaveLength(50)
  expect(first.next).not.toBeNull()
  const second = await listAllWorkspaces(db, { before: first.next ?? undefined })
  const seen = [...first.workspaces, ...second.workspaces].map((row) => row.id)
  expect(new Set(seen).size).toBe(seen.length)
  for (const workspace of [...made, orphan]) expect(seen).toContain(workspace.id)
  expect(seen.indexOf(orphan.id)).toBeGreaterThan(Math.max(...made.map((row) => seen.indexOf(row.id))))
  expect(second.workspaces.find((row) => row.id === orphan.id)).toMatchObject({
    ownerId: null,
    memberCount: 0,
  })
})
