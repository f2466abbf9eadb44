import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { tasks, users, workspaceMembers, workspaces } from '~/db/schema'

/**
 * Workspaces as support needs to find them (docs/product-rules.md §1): each one's name, slug,
 * owner, how many people are in it and how many tasks it holds — never a task's title, a
 * member's role or an invitation. Team workspaces by default; the personal ones, one per
 * account, only when asked for.
 */

const WORKSPACES_PAGE_SIZE = 50

/** Where the previous page ended: the oldest row's creation time and id. */
export type WorkspacesCursor = { createdAt: Date; id: string }

const memberCount = sql<number>`(SELECT count(*) FROM ${workspaceMembers} m WHERE m.workspace_id = ${workspaces.id})`
const taskCount = sql<number>`(SELECT count(*) FROM ${tasks} t WHERE t.workspace_id = ${workspaces.id})`

/**
 * Workspaces newest first, a page at a time: team ones only unless `includePersonal`, and
 * after `before` (the last row of the previous page) when given; `next` is where the page after
 * this one starts, null on the last.
 */
export async function listAllWorkspaces(
  db: Database,
  { includePersonal = false, before }: { includePersonal?: boolean; before?: WorkspacesCursor } = {},
) {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      slug: workspaces.slug,
      personalOf: workspaces.personalOf,
      createdAt: workspaces.createdAt,
      ownerId: users.id,
      ownerName: users.name,
      ownerEmail: users.email,
      memberCount,
      taskCount,
    })
    .from(workspaces)
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.role, 'owner')),
    )
    .leftJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        includePersonal ? undefined : isNull(workspaces.personalOf),
        before
          ? or(
              lt(workspaces.createdAt, before.createdAt),
              and(eq(workspaces.createdAt, before.createdAt), lt(workspaces.id, before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(workspaces.createdAt), desc(workspaces.id))
    .limit(WORKSPACES_PAGE_SIZE + 1)
  const page = rows.slice(0, WORKSPACES_PAGE_SIZE).map(({ personalOf, memberCount, taskCount, ...row }) => ({
    ...row,
    isPersonal: personalOf !== null,
    memberCount: Number(memberCount),
    taskCount: Number(taskCount),
  }))
  const last = page.at(-1)
  const next: WorkspacesCursor | null =
    rows.length > WORKSPACES_PAGE_SIZE && last ? { createdAt: last.createdAt, id: last.id } : null
  return { workspaces: page, next }
}
