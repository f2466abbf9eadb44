import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { users } from '~/db/schema'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { type Access, getTask, type Viewer } from './tasks.server'

/**
 * Who may be mentioned on a task (docs/product-rules.md §1):
 * - the owner may mention the people the task is shared with (once they verified that address,
 *   as sharing itself requires);
 * - a person it is shared with may mention only the owner — never the others it is shared with;
 * - a public task allows no mentions at all, so its page leaks nobody's e-mail;
 * - anyone else sees the task only because it is public, so the list is empty for them too.
 */
export async function mentionableUsers(db: Executor, viewer: Viewer, taskId: string): Promise<Mentionable[]> {
  return mentionableFor(db, await getTask(db, viewer, taskId))
}

export async function mentionableFor(db: Executor, access: Access): Promise<Mentionable[]> {
  const { task } = access
  if (task.isPublic) return []
  const columns = { id: users.id, name: users.name, email: users.email, image: users.image }
  if (access.isOwner) {
    if (task.sharedWith.length === 0) return []
    return db
      .select(columns)
      .from(users)
      .where(and(inArray(sql`lower(${users.email})`, task.sharedWith), isNotNull(users.emailVerifiedAt)))
      .orderBy(users.name)
  }
  if (access.isShared) return db.select(columns).from(users).where(eq(users.id, task.userId))
  return []
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
