import { and, count, eq, max } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events, tasks, workspaceMembers, workspaces } from '~/db/schema'
import { createApiToken } from '~/services/api-tokens.server'
import { toSessionUser } from '~/services/sessions.server'
import { WORKSPACE_NOT_FOUND } from '~/services/workspaces/membership.server'
import { signedInBrowser } from '../helpers/auth'
import { createTask, createUser } from '../helpers/factories'
import { type RpcClient, type RpcServer, startRpcServer } from '../helpers/rpc'

/**
 * The caller's workspaces over /api/rpc (docs/product-rules.md §1, §5): `workspace.*`, and the
 * task reads and `task.create` narrowed to one workspace, through `@orpc/client` over real HTTP.
 * A workspace the caller is not in answers exactly as one that does not exist, and a refused
 * call changes nothing.
 */

const db = database()
let server: RpcServer
let ada: Awaited<ReturnType<typeof createUser>>
let grace: Awaited<ReturnType<typeof createUser>>
let eve: Awaited<ReturnType<typeof createUser>>
let teamId: string
/** Ada and Grace's team; Eve is in no workspace but her own. */
const client = {} as Record<'ada' | 'grace' | 'eve', RpcClient>
const reader = {} as Record<'ada' | 'eve', RpcClient>

beforeAll(async () => {
  server = await startRpcServer()
  ada = await createUser(db, { name: 'Ada Lovelace' })
  grace = await createUser(db, { name: 'Grace Hopper' })
  eve = await createUser(db, { name: 'Eve Outsider' })
  const [team] = await db
    .insert(workspaces)
    .values({ name: 'Analytical Engine', slug: `engine-${Date.now()}` })
    .returning()
  if (!team) throw new Error('no workspace')
  teamId = team.id
  await db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: ada.id, role: 'owner' },
    { workspaceId: teamId, userId: grace.id, role: 'member' },
  ])
  for (const [name, person] of [
    ['ada', ada],
    ['grace', grace],
    ['eve', eve],
  ] as const) {
    client[name] = server.clientAs(await signedInBrowser(db, person.id))
  }
  reader.ada = server.clientAs(await signedInBrowser(db, ada.id), { method: 'GET' })
  reader.eve = server.clientAs(await signedInBrowser(db, eve.id), { method: 'GET' })
  await createTask(db, { userId: ada.id, text: 'Ada’s own engine notes' })
  await createTask(db, { userId: grace.id, workspaceId: teamId, text: 'Grace’s engine compiler' })
  await createTask(db, { userId: eve.id, text: 'Eve’s engine secrets' })
})

afterAll(() => server.close())

async function rejection(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    const { code, status, message } = error as { code: string; status: number; message: string }
    return { code, status, message }
  }
  throw new Error('Expected the call to be rejected')
}

const NOT_FOUND = { code: 'NOT_FOUND', status: 404, message: WORKSPACE_NOT_FOUND }

/** Every row a refused call could have touched. */
async function world() {
  const [taskCount] = await db.select({ n: count() }).from(tasks)
  const [lastEvent] = await db.select({ id: max(events.id) }).from(events)
  return { tasks: taskCount?.n, lastEvent: lastEvent?.id ?? 0 }
}

describe('workspace.*', () => {
  test('list: the caller’s workspaces, the personal one first, with their role', async () => {
    const theirs = await reader.ada.workspace.list()
    expect(theirs.map((workspace) => [workspace.id, workspace.isPersonal, workspace.role])).toEqual([
      [ada.id, true, 'owner'],
      [teamId, false, 'owner'],
    ])
    expect(theirs[1]).toMatchObject({ name: 'Analytical Engine', memberCount: 2 })
    expect((await reader.eve.workspace.list()).map((workspace) => workspace.id)).toEqual([eve.id])
    expect(server.requests.at(-1)?.method).toBe('GET')
  })

  test('get and members: a workspace the caller is in; any other answers as an unknown id', async () => {
    expect(await client.grace.workspace.get({ workspaceId: teamId })).toMatchObject({
      id: teamId,
      role: 'member',
      isPersonal: false,
    })
    const members = await client.grace.workspace.members({ workspaceId: teamId })
    expect(members.map((member) => [member.userId, member.role])).toEqual([
      [ada.id, 'owner'],
      [grace.id, 'member'],
    ])

    for (const workspaceId of [teamId, ada.id, 'no-such-workspace']) {
      expect(await rejection(client.eve.workspace.get({ workspaceId })), workspaceId).toEqual(NOT_FOUND)
      expect(await rejection(client.eve.workspace.members({ workspaceId })), workspaceId).toEqual(NOT_FOUND)
    }
  })
})

describe('task.* in a workspace', () => {
  test('task.create puts the task in the workspace named, else in the personal one', async () => {
    const inTeam = await client.grace.task.create({ text: 'Punch the cards', workspaceId: teamId })
    expect(inTeam).toMatchObject({ workspaceId: teamId, userId: grace.id })
    const personal = await client.grace.task.create({ text: 'Grace’s own errand' })
    expect(personal.workspaceId).toBe(grace.id)
  })

  test('task.create in a workspace the caller is not in: NOT_FOUND, and nothing created', async () => {
    for (const workspaceId of [teamId, ada.id, 'no-such-workspace']) {
      const before = await world()
      const refused = await rejection(client.eve.task.create({ text: 'Eve slips one in', workspaceId }))
      expect(refused, workspaceId).toEqual(NOT_FOUND)
      expect(await world()).toEqual(before)
    }
    expect(await db.select().from(tasks).where(eq(tasks.text, 'Eve slips one in'))).toEqual([])
  })

  test('task.getAll: everything without a workspace; with one, only its tasks, a teammate’s too', async () => {
    const everything = (await reader.ada.task.getAll()).map((task) => task.text)
    expect(everything).toEqual(expect.arrayContaining(['Ada’s own engine notes', 'Grace’s engine compiler']))
    const team = await reader.ada.task.getAll({ workspaceId: teamId })
    expect(team.length).toBeGreaterThan(0)
    expect(team.every((task) => task.workspaceId === teamId)).toBe(true)
    expect(team.map((task) => task.text)).toContain('Grace’s engine compiler')
    const personal = await reader.ada.task.getAll({ workspaceId: ada.id })
    expect(personal.map((task) => task.text)).toEqual(['Ada’s own engine notes'])
    expect(await rejection(reader.eve.task.getAll({ workspaceId: teamId }))).toEqual(NOT_FOUND)
    expect(await rejection(reader.eve.task.getAll({ workspaceId: 'no-such-workspace' }))).toEqual(NOT_FOUND)
  })

  test('task.getAll by GET follows a change of membership at once, with or without a workspace', async () => {
    const zoe = await createUser(db, { name: 'Zoe Newcomer' })
    const zoes = server.clientAs(await signedInBrowser(db, zoe.id), { method: 'GET' })
    const texts = async () => (await zoes.task.getAll()).map((task) => task.text)
    expect(await texts()).not.toContain('Grace’s engine compiler')
    await db.insert(workspaceMembers).values({ workspaceId: teamId, userId: zoe.id, role: 'member' })
    expect(await texts()).toContain('Grace’s engine compiler')
    expect((await zoes.task.getAll({ workspaceId: teamId })).map((task) => task.text)).toContain(
      'Grace’s engine compiler',
    )
    await db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, teamId), eq(workspaceMembers.userId, zoe.id)))
    expect(await texts()).not.toContain('Grace’s engine compiler')
    expect(await rejection(zoes.task.getAll({ workspaceId: teamId }))).toEqual(NOT_FOUND)
  })

  test('task.search: every workspace of the caller’s, or one; another is NOT_FOUND', async () => {
    const hits = async (workspaceId?: string) =>
      (await reader.ada.task.search({ query: 'engine', workspaceId })).tasks.map((task) => task.text).sort()
    expect(await hits()).toEqual(['Ada’s own engine notes', 'Grace’s engine compiler'])
    expect(await hits(teamId)).toEqual(['Grace’s engine compiler'])
    expect(await hits(ada.id)).toEqual(['Ada’s own engine notes'])
    expect(await rejection(reader.eve.task.search({ query: 'engine', workspaceId: teamId }))).toEqual(
      NOT_FOUND,
    )
    expect(await rejection(reader.eve.task.search({ query: 'engine', workspaceId: ada.id }))).toEqual(
      NOT_FOUND,
    )
  })

  test('task.getTaskStats: the caller’s personal workspace’s tasks, or another of their workspaces’; any other is NOT_FOUND', async () => {
    const topLevelIn = async (workspaceId: string) =>
      (await db.select().from(tasks).where(eq(tasks.workspaceId, workspaceId))).filter(
        (task) => task.parentTaskId === null,
      ).length
    expect(await topLevelIn(teamId)).toBeGreaterThan(0)
    const graces = server.clientAs(await signedInBrowser(db, grace.id), { method: 'GET' })
    expect((await graces.task.getTaskStats()).own.total).toBe(await topLevelIn(grace.id))
    expect((await graces.task.getTaskStats({ workspaceId: teamId })).own.total).toBe(await topLevelIn(teamId))
    expect((await graces.task.getTaskStats({ workspaceId: grace.id })).own.total).toBe(
      await topLevelIn(grace.id),
    )
    expect(await rejection(reader.eve.task.getTaskStats({ workspaceId: teamId }))).toEqual(NOT_FOUND)
  })
})

describe('a personal API token', () => {
  test('acts as its person in every workspace they are in', async () => {
    const { token } = await createApiToken(db, toSessionUser(grace), {
      name: 'Script',
      scope: 'read-write',
      expiry: 'none',
    })
    const script = server.client({ headers: { Authorization: `Bearer ${token}` } })
    expect((await script.workspace.list()).map((workspace) => workspace.id)).toEqual([grace.id, teamId])
    const made = await script.task.create({ text: 'Scripted in the team', workspaceId: teamId })
    expect(made).toMatchObject({ workspaceId: teamId, userId: grace.id })
    const team = (await script.task.getAll({ workspaceId: teamId })).map((task) => task.text)
    expect(team).toEqual(expect.arrayContaining(['Scripted in the team', 'Grace’s engine compiler']))
    expect(await rejection(script.task.getAll({ workspaceId: eve.id }))).toEqual(NOT_FOUND)
  })
})
