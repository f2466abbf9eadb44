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
  ruleHolds,
  TASK_NOT_FOUND,
  taskAudienceColumns,
  visibilityParams,
} from './tasks/rule.server'
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

/** How a person stands to a task, as far as mentions care (`ruleHolds` 'change' and 'sharedWith'). */
export type Standing = { isOwner: boolean; isShared: boolean }

/**
 * The rule above, once: whether a person who stands `by` to a task may mention one who stands
 * `of` to it. `mentionableFor` asks it which people to read; nothing else decides whom.
 */
export function mayMention(task: { isPublic: boolean }, by: Standing, of: Standing): boolean {
  return !task.isPublic && ((by.isOwner && of.isShared) || (by.isShared && of.isOwner))
}

const THE_OWNER: Standing = { isOwner: true, isShared: false }
const A_PERSON_IT_IS_SHARED_WITH: Standing = { isOwner: false, isShared: true }

/**
 * What the rule needs of a task and of how the viewer stands to it. `Access` (getTask) carries it;
 * `mentionScope` reads only this.
 */
export type MentionScope = Standing & { task: Pick<TaskView, 'id' | 'userId' | 'isPublic' | 'sharedWith'> }

const mentionableColumns = { id: users.id, name: users.name, email: users.email, image: users.image }

/** The people the task is shared with, once they verified that address, as sharing requires; never its owner. */
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

export async function mentionableFor(db: Database, scope: MentionScope): Promise<Mentionable[]> {
  const { task } = scope
  if (mayMention(task, scope, THE_OWNER)) return userById(db).all({ userId: task.userId })
  // Only the owner learns whom a task is shared with, so only for them is the list complete.
  if (mayMention(task, scope, A_PERSON_IT_IS_SHARED_WITH) && task.sharedWith.length > 0) {
    return verifiedSharesOf(db).all({ taskId: task.id, ownerId: task.userId })
  }
  return []
}

/** A task as the mention rule sees it, in one prepared read, for a viewer who may see it. */
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
 * The task as the rule above needs it, without building its whole view (subtask progress, the
 * names of the people it is shared with) as getTask does. As there, only the owner learns whom it
 * is shared with; NotFound when the viewer may not see the task.
 */
export async function mentionScope(db: Database, viewer: Viewer, taskId: string): Promise<MentionScope> {
  const params = visibilityParams(viewer, taskId)
  const [row] = await taskScopeOf(db).all(params)
  if (!row) throw new NotFound(TASK_NOT_FOUND)
  const audience = audienceOf(row)
  const isOwner = ruleHolds('change', audience, viewer)
  return {
    task: {
      id: row.id,
      userId: audience.ownerId,
      isPublic: audience.isPublic,
      sharedWith: isOwner ? audience.sharedWith : [],
    },
    isOwner,
    isShared: ruleHolds('sharedWith', audience, viewer),
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
