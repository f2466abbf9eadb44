import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { taskShares, tasks, users } from '~/db/schema'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { NotFound } from './errors'
import type { Viewer } from './session-user'
import { isTaskVisibleSql, TASK_NOT_FOUND, visibilityParams } from './tasks/rule.server'
import type { TaskView } from './tasks/view'

/**
 * Who may be mentioned on a task (docs/product-rules.md §1):
 * - the owner may mention the people the task is shared with (once they verified that address,
 *   as sharing itself requires);
 * - a person it is shared with may mention only the owner — never the others it is shared with;
 * - a public task allows no mentions at all, so its page leaks nobody's e-mail;
 * - anyone else sees the task only because it is public, so the list is empty for them too.
 */
export async function mentionableUsers(db: Database, viewer: Viewer, taskId: string): Promise<Mentionable[]> {
  return mentionableFor(db, await mentionScope(db, viewer, taskId))
}

/**
 * What the rule needs of a task and of how the viewer stands to it. `Access` (getTask) carries it;
 * `mentionScope` reads only this.
 */
export type MentionScope = {
  task: Pick<TaskView, 'id' | 'userId' | 'isPublic' | 'sharedWith'>
  isOwner: boolean
  isShared: boolean
}

const mentionableColumns = { id: users.id, name: users.name, email: users.email, image: users.image }

/** The people the task is shared with, once they verified that address, as sharing requires. */
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

export async function mentionableFor(db: Database, scope: MentionScope): Promise<Mentionable[]> {
  const { task } = scope
  if (task.isPublic) return []
  if (scope.isOwner) {
    if (task.sharedWith.length === 0) return []
    return verifiedSharesOf(db).all({ taskId: task.id })
  }
  if (scope.isShared) return userById(db).all({ userId: task.userId })
  return []
}

/** A task as the mention rule sees it, in one prepared read, for a viewer who may see it. */
const taskScopeOf = preparedPerDatabase((db) =>
  db
    .select({
      id: tasks.id,
      userId: tasks.userId,
      isPublic: tasks.isPublic,
      shares: sql<string>`(SELECT json_group_array(s.email) FROM ${taskShares} s WHERE s.task_id = ${tasks}.id)`,
    })
    .from(tasks)
    .where(and(eq(tasks.id, sql.placeholder('taskId')), isTaskVisibleSql))
    .limit(1)
    .prepare(),
)

/**
 * The task as the rule above needs it, without building its whole view (subtask progress, the
 * names of the people it is shared with) as getTask does. As there, only the owner learns whom it
 * is shared with; NotFound when the viewer may not see the task.
 */
export async function mentionScope(db: Database, viewer: Viewer, taskId: string): Promise<MentionScope> {
  const params = visibilityParams(viewer, taskId)
  const [row] = await taskScopeOf(db).all(params)
  if (!row) throw new NotFound(TASK_NOT_FOUND)
  const shares = JSON.parse(row.shares) as string[]
  const isOwner = viewer?.id === row.userId
  return {
    task: { id: row.id, userId: row.userId, isPublic: row.isPublic, sharedWith: isOwner ? shares : [] },
    isOwner,
    isShared: !isOwner && params.email !== null && shares.includes(params.email),
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
