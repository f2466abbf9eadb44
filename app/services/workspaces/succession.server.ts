import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { users, workspaceMembers, workspaces } from '~/db/schema'
import { type Builder, type Step, wroteJustBefore } from '~/db/write.server'
import { startDeletionSteps } from './deletion.server'
import { holdsSql } from './workspaces.server'

/**
 * What becomes of the team workspaces a person owns when their account is deleted
 * (docs/decisions/050-an-owners-account-deleted.md): a workspace always has exactly one owner, so
 * each passes to its longest-standing admin, else its longest-standing member; one nobody else is
 * in is deleted, as its owner would delete it. The person's own tasks go with their account
 * wherever they are; the tasks others created stay with the workspace that keeps them.
 */

export type Succession = {
  workspaceId: string
  name: string
  slug: string
  /** Who owns it next; null when nobody else is in it, and it is deleted. */
  successor: { id: string; name: string } | null
}

const isMember = (workspaceId: string, personId: string) =>
  sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, personId),
  )})`

/** The team workspaces the person owns, each with who would own it after them. */
export async function successionsOf(db: Executor, ownerId: string): Promise<Succession[]> {
  const owned = await db
    .select({ workspaceId: workspaces.id, name: workspaces.name, slug: workspaces.slug })
    .from(workspaces)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
    .where(
      and(
        eq(workspaceMembers.userId, ownerId),
        eq(workspaceMembers.role, 'owner'),
        isNull(workspaces.personalOf),
      ),
    )
    .orderBy(asc(workspaces.name))
  if (owned.length === 0) return []
  const others = await db
    .select({ workspaceId: workspaceMembers.workspaceId, id: users.id, name: users.name })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        inArray(
          workspaceMembers.workspaceId,
          owned.map((row) => row.workspaceId),
        ),
        ne(workspaceMembers.userId, ownerId),
      ),
    )
    // The first of each workspace's people is its successor: admins first, then by seniority.
    .orderBy(
      desc(sql`${workspaceMembers.role} = 'admin'`),
      asc(workspaceMembers.createdAt),
      asc(workspaceMembers.userId),
    )
  return owned.map((workspace) => {
    const next = others.find((row) => row.workspaceId === workspace.workspaceId)
    return { ...workspace, successor: next ? { id: next.id, name: next.name } : null }
  })
}

/**
 * The statements, for the commit that deletes the account, that hand each workspace on: the
 * owner's place goes first (one owner at a time) and the successor is made owner right after, only
 * if still a member; a workspace with nobody else in it starts its deletion.
 */
export function successionSteps(db: Builder, ownerId: string, successions: Succession[], now: Date) {
  return successions.flatMap(({ workspaceId, successor }): Step[] => {
    const isStillOwner = holdsSql(workspaceId, ownerId, 'owner')
    if (!successor) {
      const deletion = { workspaceId, deletedBy: ownerId, members: [ownerId], admins: [ownerId] }
      return Object.values(startDeletionSteps(db, deletion, isStillOwner, now))
    }
    return [
      db
        .delete(workspaceMembers)
        .where(
          and(
            eq(workspaceMembers.workspaceId, workspaceId),
            eq(workspaceMembers.userId, ownerId),
            eq(workspaceMembers.role, 'owner'),
            isMember(workspaceId, successor.id),
          ),
        ),
      db
        .update(workspaceMembers)
        .set({ role: 'owner' })
        .where(
          and(
            eq(workspaceMembers.workspaceId, workspaceId),
            eq(workspaceMembers.userId, successor.id),
            wroteJustBefore,
          ),
        ),
    ]
  })
}
