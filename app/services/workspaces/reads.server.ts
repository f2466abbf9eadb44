import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { users, workspaceMembers, workspaces } from '~/db/schema'
import type { WorkspaceRole } from '~/domain/workspaces'
import type { Actor } from '../session-user'
import { workspaceNotFound } from './membership.server'

/**
 * Reading workspaces: the ones a person is in, one of them with their role, and its members. A
 * workspace someone is not in answers exactly as one that does not exist (`workspaceNotFound`):
 * nobody learns that a workspace, or who is in it, exists from outside it.
 */

export type WorkspaceView = {
  id: string
  name: string
  slug: string
  isPersonal: boolean
  /** The reader's own role in it. */
  role: WorkspaceRole
  memberCount: number
  createdAt: string
}

export type MemberView = {
  userId: string
  name: string
  email: string
  image: string | null
  role: WorkspaceRole
  joinedAt: string
}

const memberCount = sql<number>`(SELECT count(*) FROM ${workspaceMembers} m WHERE m.workspace_id = ${workspaces.id})`

function workspaceColumns() {
  return {
    id: workspaces.id,
    name: workspaces.name,
    slug: workspaces.slug,
    personalOf: workspaces.personalOf,
    role: workspaceMembers.role,
    memberCount,
    createdAt: workspaces.createdAt,
  }
}

type WorkspaceRow = {
  id: string
  name: string
  slug: string
  personalOf: string | null
  role: WorkspaceRole
  memberCount: number
  createdAt: Date
}

function toView(row: WorkspaceRow): WorkspaceView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    isPersonal: row.personalOf !== null,
    role: row.role,
    memberCount: Number(row.memberCount),
    createdAt: row.createdAt.toISOString(),
  }
}

function selectWorkspaces(db: Executor, person: Pick<Actor, 'id'>) {
  return db
    .select(workspaceColumns())
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, person.id)),
    )
}

/** The workspaces a person is in: their personal one first, then the others by name. */
export async function listWorkspaces(db: Executor, person: Pick<Actor, 'id'>): Promise<WorkspaceView[]> {
  const rows = await selectWorkspaces(db, person).orderBy(
    desc(sql`${workspaces.personalOf} IS NOT NULL`),
    asc(sql`lower(${workspaces.name})`),
    asc(workspaces.createdAt),
  )
  return rows.map(toView)
}

/** One workspace the person is in, by id; NotFound otherwise. */
export async function getWorkspace(db: Executor, person: Pick<Actor, 'id'>, workspaceId: string) {
  const [row] = await selectWorkspaces(db, person).where(eq(workspaces.id, workspaceId)).limit(1)
  if (!row) throw workspaceNotFound()
  return toView(row)
}

/** One workspace the person is in, by its slug (the pages' addresses); NotFound otherwise. */
export async function getWorkspaceBySlug(db: Executor, person: Pick<Actor, 'id'>, slug: string) {
  const [row] = await selectWorkspaces(db, person).where(eq(workspaces.slug, slug)).limit(1)
  if (!row) throw workspaceNotFound()
  return toView(row)
}

/** The members of a workspace the person is in, its owner first, then admins, then members, by name; NotFound otherwise. */
export async function listMembers(db: Executor, person: Pick<Actor, 'id'>, workspaceId: string) {
  await getWorkspace(db, person, workspaceId)
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      image: users.image,
      role: workspaceMembers.role,
      joinedAt: workspaceMembers.createdAt,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(
      sql`CASE ${workspaceMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`,
      asc(sql`lower(${users.name})`),
    )
  return rows.map(
    (row): MemberView => ({ ...row, name: row.name || row.email, joinedAt: row.joinedAt.toISOString() }),
  )
}

/** The team workspaces a person owns, counted: a query to await, or to embed as a write's condition. */
export function ownedTeamsCount(db: Pick<Executor, 'select'>, personId: string) {
  return db
    .select({ n: count() })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, personId),
        eq(workspaceMembers.role, 'owner'),
        sql`${workspaces.personalOf} IS NULL`,
      ),
    )
}

/** How many team workspaces the person owns (at most `WORKSPACE_LIMITS.ownedTeams`). */
export async function countOwnedTeams(db: Executor, personId: string) {
  const [row] = await ownedTeamsCount(db, personId)
  return Number(row?.n ?? 0)
}
