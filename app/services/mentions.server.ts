import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { taskShares, tasks, users } from '~/db/schema'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { NotFound } from './errors'
import type { Viewer } from './session-user'
import {
  audienceOf,
  isTaskVisibleSql,
  type Permissions,
  permissionsOf,
  TASK_NOT_FOUND,
  taskAudienceColumns,
  visibilityParams,
} from './tasks/rule.server'
import type { TaskView } from './tasks/view'

/**
 * Who may be mentioned on a task (docs/product-rules.md §1), as two rules of `TASK_RULES`
 * (tasks/rule.server.ts), held with the others by its rule-forms test:
 * - the owner may mention the people the task is shared with (once they verified that address,
 *   as sharing itself requires): `mentionSharedWith`;
 * - a person it is shared with may mention only the owner — never the others it is shared with:
 *   `mentionOwner`;
 * - a public task allows no mentions at all, so its page leaks nobody's e-mail;
 * - anyone else sees the task only because it is public, so the list is empty for them too.
 */
export async function mentionableUsers(db: Database, viewer: Viewer, taskId: string): Promise<Mentionable[]> {
  return mentionableFor(db, await mentionScope(db, viewer, taskId))
}

/**
 * What the rules need of a task and of the viewer: its owner and, for the owner alone, whom it is
 * shared with, and the two mention rules decided. `Access` (getTask) carries it; `mentionScope`
 * reads only this.
 */
export type MentionScope = {
  task: Pick<TaskView, 'id' | 'userId' | 'sharedWith'>
  may: Pick<Permissions, 'mentionOwner' | 'mentionSharedWith'>
}

const mentionableColumns = { id: users.id, name: users.name, email: users.email, image: users.image }

/**
 * The people the task is shared with, once they verified that address, as sharing requires; never
 * its owner: those `TASK_RULES.sharedWith` holds for, read as people in one prepared statement.
 */
const verifiedSharesOf = preparedPerDatabase((db) =>
  db
    .select(mentionableColumns)
    .from(users)
    .where(
      and(
        inArray(
          sql`lower(${users.email})`,
          db
            .select({ email: taskShares.email })
            .from(taskShares)
            .where(eq(taskShares.taskId, sql.placeholder('taskId'))),
        ),
        isNotNull(users.emailVerifiedAt),
        ne(users.id, sql.placeholder('ownerId')),
      ),
    )
    .orderBy(users.name)
    .prepare(),
)

const userById = preparedPerDatabase((db) =>
  db
    .select(mentionableColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(),
)

/** The people the rules let this viewer mention: the owner, or the people the task is shared with. */
export async function mentionableFor(db: Database, scope: MentionScope): Promise<Mentionable[]> {
  const { task, may } = scope
  if (may.mentionOwner) return userById(db).all({ userId: task.userId })
  // Only the owner may mention them, and only the owner learns whom the task is shared with.
  if (may.mentionSharedWith && task.sharedWith.length > 0) {
    return verifiedSharesOf(db).all({ taskId: task.id, ownerId: task.userId })
  }
  return []
}

/** A task as the mention rules see it, in one prepared read, for a viewer who may see it. */
const taskScopeOf = preparedPerDatabase((db) =>
  db
    .select({
      id: tasks.id,
      ...taskAudienceColumns,
    })
    .from(tasks)
    .where(and(eq(tasks.id, sql.placeholder('taskId')), isTaskVisibleSql))
    .limit(1)
    .prepare(),
)

/**
 * The task as the rules above need it, without building its whole view (subtask progress, the
 * names of the people it is shared with) as getTask does. As there, only the owner learns whom it
 * is shared with (`seeShares`); NotFound when the viewer may not see the task.
 */
export async function mentionScope(db: Database, viewer: Viewer, taskId: string): Promise<MentionScope> {
  const [row] = await taskScopeOf(db).all(visibilityParams(viewer, taskId))
  if (!row) throw new NotFound(TASK_NOT_FOUND)
  const audience = audienceOf(row)
  const may = permissionsOf(audience, viewer)
  return {
    task: { id: row.id, userId: audience.ownerId, sharedWith: may.seeShares ? audience.sharedWith : [] },
    may,
  }
}

/**
 * Whom a comment notifies: the people its text names (matched as the client matches them) and
 * those the client says it picked, but only among the mentionable — a client cannot widen the
 * list — and never the author.
 */
export function recipientsOf(
  content: string,
  hintedEmails: readonly string[],
  mentionable: readonly Mentionable[],
  authorId: string,
): Mentionable[] {
  const hinted = new Set(hintedEmails.map((email) => email.toLowerCase()))
  const picked = new Map<string, Mentionable>()
  for (const user of findMentions(content, [...mentionable])) picked.set(user.id, user)
  for (const user of mentionable) if (hinted.has(user.email.toLowerCase())) picked.set(user.id, user)
  picked.delete(authorId)
  return [...picked.values()]
}
